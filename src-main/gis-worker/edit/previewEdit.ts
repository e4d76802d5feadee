import type { Dataset, Layer } from 'gdal-async';
import type { ChangeSample } from '../../../src-shared/domain/chat.js';
import type { EditOp, GeometryInput, Scalar } from '../../../src-shared/edit/editOps.js';
import { quoteIdentifier as qi } from '../../../src-shared/sql/quote.js';
import { gdalDatasourceProblem } from '../../../src-shared/sql/checkQuery.js';
import { BadInputError } from '../errors.js';
import { openSource } from '../openSource.js';
import { geometryFor } from './geometryInput.js';
import { assertNewField, checkedCalculation, converted, resolveField, targetCondition } from './editSql.js';
import { rows as runRows, type Row } from './sqlExec.js';
import { copyGeometryType } from './workingCopy.js';

const SAMPLE = 5;
type Cell = string | number | boolean | null;

/**
 * What an op would do, worked out read-only on the layer as it is now (the original before the
 * first edit, else the working copy): how many features it touches and a few of them before
 * and after, for the approval dialog. Nothing is written.
 */
export async function previewEdit(source: string, op: EditOp): Promise<{ sample: ChangeSample; notes: string[] }> {
  const opened = await openSource(source);
  if (opened.kind !== 'vector') {
    opened.ds.close();
    throw new BadInputError('Only vector layers and tables can be edited.');
  }
  try {
    return preview(new Reader(opened.ds, opened.layer), op);
  } finally {
    opened.ds.close();
  }
}

/** SELECTs over the layer: GeoPackage's own SQL, or GDAL's SQLite dialect (FID as rowid) elsewhere. */
class Reader {
  readonly fields: string[];
  readonly table: string;
  readonly fid: string;
  private readonly native: boolean;
  private readonly editType: number;
  constructor(
    private readonly ds: Dataset,
    readonly layer: Layer,
  ) {
    this.fields = layer.fields.getNames();
    this.table = qi(layer.name);
    this.native = ds.driver.description === 'GPKG';
    this.fid = this.native ? qi(layer.fidColumn || 'fid') : 'rowid';
    // Inputs are checked against the type the working copy has (or will have).
    this.editType = copyGeometryType(ds.driver.description, layer.geomType);
  }
  /** Reads an input geometry as the edit will, so a bad one is refused before the dialog. */
  geometry(input: GeometryInput, crs: 'EPSG:4326' | 'layer'): void {
    geometryFor(this.layer, input, crs, this.editType);
  }
  rows(sql: string): Row[] {
    if (!this.native) {
      const problem = gdalDatasourceProblem(sql);
      if (problem) throw new BadInputError(problem);
    }
    return runRows(this.ds, sql, this.native ? undefined : 'SQLITE');
  }
  count(condition: string): number {
    return Number(this.rows(`SELECT COUNT(*) AS n FROM ${this.table} WHERE ${condition}`)[0]?.n ?? 0);
  }
  /** The first rows matching, with their FID and the named expressions. */
  sample(condition: string, exprs: string[], order = ''): { fid: number | null; cells: Cell[] }[] {
    const cols = [`${this.fid} AS mw_fid`, ...exprs.map((e, i) => `${e} AS mw_${i}`)].join(', ');
    return this.rows(`SELECT ${cols} FROM ${this.table} WHERE ${condition} ORDER BY ${order}${this.fid} LIMIT ${SAMPLE}`).map((r) => ({
      fid: toFid(r.mw_fid ?? r.__fid),
      cells: exprs.map((_, i) => cell(r[`mw_${i}`])),
    }));
  }
  condition(target: Parameters<typeof targetCondition>[0]): string {
    return targetCondition(target, this.fields, this.fid);
  }
}

function preview(r: Reader, op: EditOp): { sample: ChangeSample; notes: string[] } {
  // A row is recognised by its name: name-like fields first, then the first others.
  const shown = [...r.fields.filter((f) => /name|title|label/i.test(f)), ...r.fields.filter((f) => !/name|title|label/i.test(f))].slice(
    0,
    4,
  );
  switch (op.kind) {
    case 'add_features': {
      // Each geometry is read now (text, type, coordinates), so a bad one is refused before the dialog.
      for (const f of op.features) if (f.geometry) r.geometry(f.geometry, op.crs);
      const keys = [...new Set(op.features.flatMap((f) => Object.keys(f.properties)))].map((k) => resolveField(r.fields, k));
      const columns = [...keys, 'geometry'];
      const lookup = (props: Record<string, Scalar>, field: string) =>
        Object.entries(props).find(([k]) => k.toLowerCase() === field.toLowerCase())?.[1] ?? null;
      const rows = op.features.slice(0, SAMPLE).map((f) => ({
        fid: null,
        before: null,
        after: [...keys.map((k) => lookup(f.properties, k)), f.geometry ? geometryLabel(f.geometry) : null],
      }));
      return { sample: { columns, rows, total: op.features.length }, notes: [] };
    }
    case 'update_features': {
      if (op.geometry) r.geometry(op.geometry, op.crs);
      const condition = r.condition(op.target);
      const keys = Object.keys(op.set).map((k) => resolveField(r.fields, k));
      const values = Object.values(op.set);
      const columns = [...keys, ...(op.geometry ? ['geometry'] : [])];
      const rows = r.sample(condition, keys.map(qi)).map((s) => ({
        fid: s.fid,
        before: [...s.cells, ...(op.geometry ? ['(current shape)'] : [])],
        after: [...values, ...(op.geometry ? [geometryLabel(op.geometry)] : [])],
      }));
      return { sample: { columns, rows, total: r.count(condition) }, notes: [] };
    }
    case 'delete_features': {
      const condition = r.condition(op.target);
      const rows = r.sample(condition, shown.map(qi)).map((s) => ({ fid: s.fid, before: s.cells, after: null }));
      return { sample: { columns: shown, rows, total: r.count(condition) }, notes: [] };
    }
    case 'add_field': {
      assertNewField(r.fields, op.name);
      const rows = r.sample('1', []).map((s) => ({ fid: s.fid, before: null, after: [op.default] }));
      return { sample: { columns: [op.name], rows, total: r.count('1') }, notes: [] };
    }
    case 'rename_field': {
      const from = resolveField(r.fields, op.from);
      if (from.toLowerCase() !== op.to.toLowerCase()) assertNewField(r.fields, op.to);
      const rows = r.sample('1', [qi(from)]).map((s) => ({ fid: s.fid, before: s.cells, after: s.cells }));
      return { sample: { columns: [`${from} → ${op.to}`], rows, total: 0 }, notes: [] };
    }
    case 'delete_field': {
      const name = resolveField(r.fields, op.name);
      const filled = r.count(`${qi(name)} IS NOT NULL`);
      const rows = r.sample(`${qi(name)} IS NOT NULL`, [qi(name)]).map((s) => ({ fid: s.fid, before: s.cells, after: null }));
      return { sample: { columns: [name], rows, total: filled }, notes: filled ? [`${filled} value(s) of ${name} will be removed.`] : [] };
    }
    case 'calculate_field': {
      const name = resolveField(r.fields, op.name);
      const expr = checkedCalculation(op.expression, r.fields, r.fid);
      const condition = op.where ? r.condition({ where: op.where }) : '1';
      const rows = r.sample(condition, [qi(name), `(${expr})`]).map((s) => ({ fid: s.fid, before: [s.cells[0]!], after: [s.cells[1]!] }));
      return { sample: { columns: [name], rows, total: r.count(condition) }, notes: [] };
    }
    case 'change_type': {
      const name = resolveField(r.fields, op.name);
      const conv = converted(name, op.type);
      const failing = `${qi(name)} IS NOT NULL AND (${conv}) IS NULL`;
      const lost = r.count(failing);
      // Rows that would not convert come first: they are what the person must see.
      const rows = r
        .sample('1', [qi(name), `(${conv})`], `(${failing}) DESC, `)
        .map((s) => ({ fid: s.fid, before: [s.cells[0]!], after: [s.cells[1]!] }));
      const examples = lost
        ? r.rows(`SELECT DISTINCT CAST(${qi(name)} AS TEXT) AS v FROM ${r.table} WHERE ${failing} LIMIT 5`).map((x) => String(x.v))
        : [];
      const notes = lost
        ? [
            `${lost} value(s) would not convert to ${op.type} and would become empty, e.g. ${examples.map((e) => JSON.stringify(e)).join(', ')}.`,
          ]
        : [];
      return { sample: { columns: [name], rows, total: r.count('1') }, notes };
    }
  }
}

function geometryLabel(g: { wkt: string } | { geojson: { type: string } }): string {
  return `(new ${'wkt' in g ? (/^\s*([A-Za-z]+)/.exec(g.wkt)?.[1] ?? 'shape').toUpperCase() : g.geojson.type})`;
}

function toFid(v: unknown): number | null {
  const n = Number(v);
  return v === null || v === undefined || !Number.isFinite(n) ? null : n;
}

/** A value for the dialog: scalars as they are, dates as ISO text, anything else named. */
function cell(v: unknown): Cell {
  if (v === null || v === undefined) return null;
  if (typeof v === 'number' || typeof v === 'string' || typeof v === 'boolean') return v;
  if (typeof v === 'object' && 'year' in (v as object)) {
    const d = v as { year: number; month: number; day: number; hour?: number; minute?: number; second?: number };
    const date = `${d.year}-${String(d.month).padStart(2, '0')}-${String(d.day).padStart(2, '0')}`;
    return d.hour === undefined
      ? date
      : `${date}T${String(d.hour).padStart(2, '0')}:${String(d.minute ?? 0).padStart(2, '0')}:${String(d.second ?? 0).padStart(2, '0')}`;
  }
  return '(binary)';
}
