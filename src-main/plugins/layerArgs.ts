import { dirname, isAbsolute, join } from 'node:path';
import type { Layer } from '../../src-shared/domain/layer.js';
import { packagePathProblem } from '../../src-shared/plugins/pluginExecutor.js';
import { parseParamRule } from '../../src-shared/plugins/paramRules.js';
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
  for (const [param, texts] of Object.entries(rules)) {
    const value = args[param];
    if (typeof value !== 'string' || !texts.some((t) => parseParamRule(t)?.kind === 'layer_exists')) continue;
    if (project) {
      const layer = project.getLayer(value);
      if (!layer) throw new ToolFailure('invalid_params', `params.${param}: no layer '${value}' in the project.`, false);
      out[param] = layer.source;
      readPaths.push(dirname(layer.source));
    } else if (!isAbsolute(value)) {
      const problem = packagePathProblem(value);
      if (problem) throw new ToolFailure('invalid_params', `params.${param}: ${problem}`, false);
      out[param] = join(pluginDir, value);
    }
  }
  return { args: out, readPaths: [...new Set(readPaths)] };
}
