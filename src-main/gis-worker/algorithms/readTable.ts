import { setImmediate as yieldToEvents } from 'node:timers/promises';
import { throwIfCancelled } from '../errors.js';
import type { AlgorithmContext } from './types.js';
import { openVectorInput } from './vectorInput.js';
import type { FieldSpec } from './workspace.js';

/**
 * Reads the attribute rows of a table-like source into memory for a join. Opened like any
 * layer (openSource), so a statistics CSV with a title above its header, footnotes, `NA`
 * cells or quoted codes such as "01" reads as it does when loaded as a table layer.
 */

export interface TableData {
  path: string;
  fields: FieldSpec[];
  /** Values in field order. */
  rows: unknown[][];
}

export async function readTable(source: string, ctx: AlgorithmContext): Promise<TableData> {
  const input = await openVectorInput(source, 'table');
  try {
    const fields = input.layer.fields.map((f) => ({ name: f.name, type: f.type, width: f.width, precision: f.precision }));
    const names = fields.map((f) => f.name);
    const rows: unknown[][] = [];
    for (let f = input.layer.features.first(); f; f = input.layer.features.next()) {
      const values = f.fields.toObject() as Record<string, unknown>;
      rows.push(names.map((n) => values[n] ?? null));
      if (rows.length % 5000 === 0) {
        await yieldToEvents();
        throwIfCancelled(ctx.signal);
      }
    }
    return { path: input.path, fields, rows };
  } finally {
    input.close();
  }
}
