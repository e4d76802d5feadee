import { dirname, isAbsolute, join } from 'node:path';
import type { Layer } from '../../src-shared/domain/layer.js';
import { packagePathProblem } from '../../src-shared/plugins/pluginExecutor.js';
import { parseParamRule } from '../../src-shared/tools/paramRules/paramRules.js';
import { ToolFailure } from '../../src-shared/tools/toolResult.js';

/** The arguments a plugin's program gets, and the folders its sandbox must let it read. */
export interface LayerArgs {
  args: Record<string, unknown>;
  readPaths: string[];
}

/**
 * The model names a layer (its name or id, as `layer_exists` checked); a program needs a file.
 * For every parameter with the `layer_exists` rule, the value becomes the layer's file path —
 * `layer.source`, the plain path, never GDAL's `path|layername=X` form, which GDAL's
 * command-line tools do not open (a sublayer of a multi-layer vector file is not passed; a
 * plugin that needs it takes the layer name as a parameter of its own). The file's folder is
 * added to what the sandbox may read.
 *
 * Without a project (self-tests, which name no project layer) a value is a file of the
 * plugin's own package: a relative path (`tests/data/dem.tif`) is resolved against the
 * plugin folder, which the sandbox shows already; one leaving the folder is refused.
 */
export function layerArgs(
  rules: Readonly<Record<string, readonly string[]>>,
  args: Readonly<Record<string, unknown>>,
  project: { getLayer(idOrName: string): Layer | undefined } | undefined,
  pluginDir: string,
): LayerArgs {
  const out: Record<string, unknown> = { ...args };
  const readPaths: string[] = [];
  const toFile = (param: string, value: string): string => {
    if (project) {
      const layer = project.getLayer(value);
      if (!layer) throw new ToolFailure('invalid_params', `params.${param}: no layer '${value}' in the project.`, false);
      readPaths.push(dirname(layer.source));
      return layer.source;
    }
    if (isAbsolute(value)) return value;
    const problem = packagePathProblem(value);
    if (problem) throw new ToolFailure('invalid_params', `params.${param}: ${problem}`, false);
    return join(pluginDir, value);
  };
  for (const [param, texts] of Object.entries(rules)) {
    const value = args[param];
    if (!texts.some((t) => parseParamRule(t)?.kind === 'layer_exists')) continue;
    // A list of layers (the rules checked each item) becomes a list of files.
    if (Array.isArray(value)) out[param] = value.map((item: unknown) => (typeof item === 'string' ? toFile(param, item) : item));
    else if (typeof value === 'string') out[param] = toFile(param, value);
  }
  return { args: out, readPaths: [...new Set(readPaths)] };
}
