import { classifySource } from '../../src-shared/security/sourceClass.js';
import { datasetReferences, sqlInDatasetProblem } from './datasetReferences.js';

/** Answers whether a path is one of the app's own files (`PrivatePaths`). */
export interface PrivatePathCheck {
  isPrivate(path: string): boolean;
  mentionedIn(text: string): boolean;
  /**
   * The origin (`postgres://host:port/database`) of a saved PostGIS connection, null when
   * there is none by that id. Without it no `postgis://` source is accepted.
   */
  databaseOrigin?(connectionId: string): string | null;
}

/**
 * What opening a source would reach, with everything a local dataset file names inside
 * itself: `origins` are the http(s) origins it would connect to, and the servers of the
 * PostGIS connections it names (`postgres://host:port/database`). A refusal says why:
 * - `refused`: a form no tool accepts (inline data, a relative path, GDAL's memory files);
 * - `private`: the app's own files;
 * - `unapprovable`: a network source the egress gate cannot let through (database
 *   connection strings, cloud stores, UNC shares, non-http schemes);
 * - `sql`: SQL inside a dataset file that could open other sources or files.
 */
export type SourceVerdict =
  { ok: true; origins: string[] } | { ok: false; kind: 'refused' | 'private' | 'unapprovable' | 'sql'; message: string };

const MAX_DEPTH = 4;

/**
 * The one judgement of a source, made by main's dispatcher (before approval) and again by the
 * GIS worker (before GDAL opens it), so the two walls cannot disagree.
 */
export function inspectSource(source: string, privatePaths: PrivatePathCheck): SourceVerdict {
  const origins = new Set<string>();
  const problem = walk(source, source, 0, privatePaths, origins);
  return problem ?? { ok: true, origins: [...origins] };
}

type Refusal = Extract<SourceVerdict, { ok: false }>;

function walk(source: string, named: string, depth: number, privatePaths: PrivatePathCheck, origins: Set<string>): Refusal | null {
  const via = source === named ? '' : ` (named inside '${clip(named)}')`;
  const c = classifySource(source);
  if (c.kind === 'refused') return { ok: false, kind: 'refused', message: `cannot open '${clip(source)}'${via}: ${c.reason}` };
  if (c.kind === 'database') {
    const origin = privatePaths.databaseOrigin?.(c.connectionId) ?? null;
    if (origin === null) {
      return {
        ok: false,
        kind: 'refused',
        message: `cannot open '${clip(source)}'${via}: there is no saved PostGIS connection '${c.connectionId}' (the person adds connections in the PostGIS panel)`,
      };
    }
    origins.add(origin);
    return null;
  }
  if (c.kind === 'network') {
    if (c.origin && /^https?:/.test(c.origin)) {
      origins.add(c.origin);
      return null;
    }
    return {
      ok: false,
      kind: 'unapprovable',
      message: `'${clip(source)}'${via} is a network source Mapwright cannot let through: only http(s) URLs can be approved; database connection strings and cloud stores are not supported`,
    };
  }
  if (privatePaths.isPrivate(c.path)) {
    return {
      ok: false,
      kind: 'private',
      message: `'${clip(source)}'${via} is inside Mapwright's own data folder (settings, keys, the project database); no tool may open it`,
    };
  }
  if (c.kind === 'archive') return null;
  const refs = datasetReferences(c.path);
  if (refs.sources.length && depth >= MAX_DEPTH)
    return { ok: false, kind: 'refused', message: `'${clip(source)}' nests datasets more than ${MAX_DEPTH} deep` };
  for (const ref of refs.sources) {
    const inner = walk(ref, source, depth + 1, privatePaths, origins);
    if (inner) return inner;
  }
  const sqlProblem = refs.sql.map((sql) => sqlInDatasetProblem(sql, privatePaths)).find(Boolean);
  if (sqlProblem) return { ok: false, kind: 'sql', message: `'${clip(source)}' holds SQL (SrcSQL) that ${sqlProblem}; it is not opened` };
  return null;
}

function clip(text: string): string {
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}
