import type { Layer } from '../../src-shared/domain/layer.js';
import { layerSource, parseSource } from '../../src-shared/domain/source.js';
import { findAlgorithm } from '../../src-shared/processing/catalogue.js';
import { capabilityValues } from '../../src-shared/security/paramCapabilities.js';
import type { ProjectHandle } from '../../src-shared/tools/handles.js';
import type { ToolDefinition } from '../../src-shared/tools/toolSdk.js';

/** Argument names through which tools name project layers (`layer`, processing's `input`…). */
const LAYER_KEYS = new Set(['layer', 'layers', 'input', 'inputs', 'overlay', 'zones', 'source_layer', 'join_layer']);

/**
 * The sources a call read, as lineage lists them (GDAL's `path|layername=NAME` form), in the
 * order first met, without the produced file itself:
 * - parameters declared as sources (`sourceParam`, `databaseParam`): the path as given;
 * - processing's layer parameters (the algorithm's `layerParams`, inside `params`), resolved
 *   through the project the way `processing_run` resolves them;
 * - other arguments named like a layer reference (`layer`, `input`, …, also inside `params`)
 *   whose value is a layer of the project, by id or name;
 * - layers an SQL argument reads (`FROM name`, `JOIN "name"`), for saved queries.
 * Read before the output is loaded, so the project holds the inputs and not yet the output.
 */
export function lineageInputs(
  def: Pick<ToolDefinition, 'id' | 'input'>,
  args: unknown,
  project: Pick<ProjectHandle, 'getLayer' | 'listLayers'>,
  produced: string,
): string[] {
  const found = new Set<string>();
  const addLayer = (ref: unknown) => {
    if (typeof ref !== 'string' || !ref) return;
    const layer = project.getLayer(ref);
    if (layer) found.add(layerSource(layer));
  };
  const { sources, sql } = capabilityValues(def.input, args);
  for (const source of sources) found.add(source);
  const top = typeof args === 'object' && args !== null ? (args as Record<string, unknown>) : {};
  const nested = typeof top.params === 'object' && top.params !== null ? (top.params as Record<string, unknown>) : {};
  const spec = def.id === 'processing.run' && typeof top.algorithm === 'string' ? findAlgorithm(top.algorithm) : undefined;
  for (const key of spec?.layerParams ?? []) forEachRef(nested[key], addLayer);
  for (const bag of [top, nested]) for (const [key, value] of Object.entries(bag)) if (LAYER_KEYS.has(key)) forEachRef(value, addLayer);
  for (const text of sql) for (const layer of layersReadBy(text, project.listLayers())) found.add(layerSource(layer));
  const own = parseSource(produced).path;
  return [...found].filter((s) => parseSource(s).path !== own);
}

function forEachRef(value: unknown, fn: (ref: unknown) => void): void {
  if (Array.isArray(value)) value.forEach(fn);
  else fn(value);
}

/** Project layers an SQL text reads: named right after FROM or JOIN, bare or in double quotes. */
function layersReadBy(sql: string, layers: readonly Layer[]): Layer[] {
  const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return layers.filter((l) => {
    const bare = `${escape(l.name)}(?![A-Za-z0-9_])`;
    const quoted = `"${escape(l.name.replace(/"/g, '""'))}"`;
    return new RegExp(`\\b(?:from|join)\\s+(?:${bare}|${quoted})`, 'i').test(sql);
  });
}
