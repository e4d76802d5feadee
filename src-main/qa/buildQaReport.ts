import type { QaOutcome } from '../../src-shared/domain/qaReport.js';
import { layerSource } from '../../src-shared/domain/source.js';
import type { GdalHandle, ProjectHandle } from '../../src-shared/tools/handles.js';
import type { LayerCheck } from '../../src-shared/worker/qaCalls.js';
import { callFacts } from './callFacts.js';
import { qaReportOf } from './qaReportOf.js';

export interface QaDeps {
  project: Pick<ProjectHandle, 'getLayer'>;
  gdal: Pick<GdalHandle, 'call'>;
}

/** A produced layer once loaded, with the call that made it (the dispatcher's `ProducedFile`). */
export interface QaSubject {
  layerName: string;
  tool: { def: { id: string } };
  /** The validated arguments that ran. */
  args: unknown;
  signal: AbortSignal;
}

/**
 * Issue 17: the QA report of a layer a call produced, made after it is loaded. It never
 * throws: a check that cannot be made comes back as one line (`failed`) and the call still
 * succeeds. Stop (the call's signal) stops the worker's reading too.
 */
export async function buildQaReport(deps: QaDeps, subject: QaSubject): Promise<QaOutcome> {
  const { layerName: layer, signal } = subject;
  try {
    if (signal.aborted) return { layer, failed: 'QA check not made: the call was stopped.' };
    const loaded = deps.project.getLayer(layer);
    if (!loaded) return { layer, failed: 'QA check not made: the layer is no longer in the project.' };
    const { info } = loaded;
    // A table has no geometry to check; its count is in its description.
    const check: LayerCheck | null =
      loaded.kind === 'table' ? null : await deps.gdal.call('qa.check_layer', { source: layerSource(loaded) }, { signal });
    const facts = callFacts(subject.tool.def.id, subject.args, deps.project);
    return qaReportOf({
      layer,
      kind: loaded.kind,
      featureCount: info.featureCount,
      width: info.width,
      height: info.height,
      crs: info.crs,
      extent4326: info.extent4326,
      check,
      inputs: facts.inputs.filter((i) => i.id !== loaded.id).map((i) => ({ name: i.name, crs: i.info.crs, extent4326: i.info.extent4326 })),
      distances: facts.distances,
      measures: facts.measures,
    });
  } catch (err) {
    if (signal.aborted) return { layer, failed: 'QA check stopped with the call.' };
    const reason = (err instanceof Error ? err.message : String(err)).split('\n')[0]!.slice(0, 300);
    return { layer, failed: `QA check failed: ${reason}` };
  }
}
