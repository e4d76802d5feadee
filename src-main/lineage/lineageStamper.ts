import { realpath } from 'node:fs/promises';
import { isAbsolute, relative, resolve } from 'node:path';
import { LINEAGE_FORMAT, type Lineage } from '../../src-shared/domain/lineage.js';
import { parseSource } from '../../src-shared/domain/source.js';
import type { ProjectHandle } from '../../src-shared/tools/handles.js';
import type { CallParams } from '../../src-shared/worker/workerCalls.js';
import type { ProducedFile } from '../tool-host/toolDispatcher.js';
import { inputChecksum } from './inputChecksum.js';
import { lineageInputs } from './lineageInputs.js';
import { recordedParameters } from './lineageParameters.js';

export interface LineageStamperDeps {
  project: Pick<ProjectHandle, 'getLayer' | 'listLayers'>;
  /** The project's outputs folder: only files in it are stamped (never a person's own data). */
  outputsDir(): string;
  /** The GIS worker's `lineage.write`. */
  write(params: CallParams<'lineage.write'>, signal: AbortSignal): Promise<unknown>;
  appVersion: string;
  /** Where a failed stamp is reported; the call itself still succeeds. */
  warn(message: string): void;
  now?(): Date;
}

/** Tools whose output is a file exactly as fetched: its lineage goes beside it, its bytes stay the server's. */
const KEPT_AS_FETCHED = new Set(['web.download']);

/**
 * The dispatcher's `stampLineage` hook (issue 17): for each file a successful call produced in
 * the outputs folder, builds its lineage — tool, version, definition hash, the arguments
 * (secrets out, size capped), the inputs with checksums, times — and has the worker store it.
 * Outputs outside the folder (a PostGIS table, a live query, a layer that is only a view) are
 * left alone. Never throws: a lineage that cannot be written is reported and the layer loads.
 */
export function createLineageStamper(deps: LineageStamperDeps): (produced: ProducedFile) => Promise<void> {
  return async (produced) => {
    const { path, sublayer } = parseSource(produced.request.path);
    try {
      if (!(await insideOutputs(path, deps.outputsDir()))) return;
      const lineage = await buildLineage(produced, deps);
      if (produced.signal.aborted) return;
      await deps.write({ path, sublayer, lineage, beside: KEPT_AS_FETCHED.has(produced.tool.def.id) }, produced.signal);
    } catch (err) {
      deps.warn(`[lineage] could not record the lineage of ${produced.request.path}: ${err instanceof Error ? err.message : String(err)}`);
    }
  };
}

export async function buildLineage(
  produced: ProducedFile,
  deps: Pick<LineageStamperDeps, 'project' | 'appVersion' | 'now'>,
): Promise<Lineage> {
  const { tool, args, request, startedAt, signal } = produced;
  const sources = lineageInputs(tool.def, args, deps.project, request.path);
  const inputs = [];
  for (const source of sources.slice(0, 200)) inputs.push(await inputChecksum(source, signal));
  const { parameters, truncated } = recordedParameters(args);
  return {
    format: LINEAGE_FORMAT,
    tool: tool.def.id,
    version: tool.def.version,
    definitionHash: tool.definitionHash,
    parameters,
    ...(truncated ? { parametersTruncated: true } : {}),
    inputs,
    startedAt: new Date(startedAt).toISOString(),
    createdAt: (deps.now?.() ?? new Date()).toISOString(),
    app: `Mapwright ${deps.appVersion}`,
  };
}

/** Whether `path` is a file inside `dir`, links resolved (a link out of the folder does not count). */
async function insideOutputs(path: string, dir: string): Promise<boolean> {
  if (!isAbsolute(path)) return false;
  const [file, folder] = await Promise.all([realpath(path).catch(() => null), realpath(dir).catch(() => resolve(dir))]);
  if (!file) return false;
  const rel = relative(folder, file);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
}
