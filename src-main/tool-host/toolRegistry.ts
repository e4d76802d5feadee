import { z } from 'zod';
import { HANDLE_NAMES } from '../../src-shared/tools/handles.js';
import { wireName, type ToolDefinition } from '../../src-shared/tools/toolSdk.js';

export interface RegisteredTool {
  def: ToolDefinition;
  wireName: string;
  /** JSON Schema of the input, as the model sees it. */
  inputSchema: Record<string, unknown>;
}

const ID = /^[a-z][a-z0-9_]*\.[a-z][a-z0-9_]*$/;

/**
 * All tools, checked once at start-up. Registration fails loudly, naming the culprit,
 * rather than letting a broken declaration reach the model.
 */
export class ToolRegistry {
  private readonly byId = new Map<string, RegisteredTool>();
  private readonly byWire = new Map<string, RegisteredTool>();

  constructor(defs: readonly ToolDefinition[]) {
    for (const def of defs) this.register(def);
  }

  private register(def: ToolDefinition): void {
    if (!ID.test(def.id)) throw new Error(`Tool id '${def.id}' must be 'namespace.name' in lowercase snake_case`);
    if (this.byId.has(def.id)) throw new Error(`Duplicate tool id '${def.id}'`);
    const wire = wireName(def.id);
    const clash = this.byWire.get(wire);
    if (clash) throw new Error(`Tool '${def.id}' has the wire name '${wire}' of '${clash.def.id}'`);
    if (!(def.input instanceof z.ZodObject)) throw new Error(`Tool '${def.id}' needs a zod object input schema`);
    if (!def.description.trim()) throw new Error(`Tool '${def.id}' has no description`);
    if (def.safety !== 'read' && typeof def.summary !== 'function') throw new Error(`Write tool '${def.id}' has no summary`);
    for (const h of def.handles) {
      if (!HANDLE_NAMES.includes(h)) throw new Error(`Tool '${def.id}' asks for unknown handle '${String(h)}'`);
    }
    const inputSchema = z.toJSONSchema(def.input, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
    delete inputSchema.$schema;
    const entry: RegisteredTool = { def, wireName: wire, inputSchema };
    this.byId.set(def.id, entry);
    this.byWire.set(wire, entry);
  }

  /** By id (`layers.load`) or wire name (`layers_load`). */
  find(name: string): RegisteredTool | undefined {
    return this.byId.get(name) ?? this.byWire.get(name);
  }

  all(): RegisteredTool[] {
    return [...this.byId.values()];
  }

  /** The closest known wire names, for an `unknown_tool` error the model can recover from. */
  nearest(name: string, count = 3): string[] {
    return this.all()
      .map((t) => ({ name: t.wireName, d: editDistance(name.toLowerCase(), t.wireName) }))
      .sort((a, b) => a.d - b.d)
      .slice(0, count)
      .map((x) => x.name);
  }
}

function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = tmp;
    }
  }
  return row[b.length]!;
}
