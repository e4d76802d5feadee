import { existsSync, realpathSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { isInside } from '../paths/isInside.js';
import { formatPath } from '../../src-shared/plugins/manifestProblems.js';
import { executorPackageFiles, executorSystemPrograms, packagePathProblem } from '../../src-shared/plugins/pluginExecutor.js';
import type { PluginManifest } from '../../src-shared/plugins/pluginManifest.js';

/**
 * Files a package names must stay inside its folder. The manifest's check refuses `..` and
 * absolute paths by their text; here the disk is asked, with symlinks resolved, so a link
 * pointing out of the folder (to ~/.ssh, to another plugin) is refused too.
 */

/** Why `rel` does not name a file inside the package at `dir`, or null when it does. */
export function packageFileProblem(dir: string, rel: string): string | null {
  const lexical = packagePathProblem(rel);
  if (lexical) return lexical;
  let realDir: string;
  let real: string;
  try {
    realDir = realpathSync(dir);
  } catch {
    return 'the plugin folder cannot be resolved';
  }
  try {
    real = realpathSync(resolve(realDir, rel));
  } catch {
    return `'${rel}' does not exist in the plugin folder`;
  }
  if (!isInside(realDir, real)) return `'${rel}' leads outside the plugin folder (through a symbolic link)`;
  try {
    if (!statSync(real).isFile()) return `'${rel}' is not a file`;
  } catch {
    return `'${rel}' cannot be read`;
  }
  return null;
}

/**
 * The files every executor of the manifest needs: package files inside the folder, absolute
 * programs present. Bare program names are looked up on PATH only when they run.
 */
export function manifestFileProblems(manifest: PluginManifest, dir: string): string[] {
  const problems: string[] = [];
  manifest.tools.forEach((tool, i) => {
    const at = (path: (string | number)[]) => formatPath(['tools', i, 'executor', ...path]);
    for (const { path, file } of executorPackageFiles(tool.executor)) {
      const problem = packageFileProblem(dir, file);
      if (problem) problems.push(`${at(path)}: ${problem}`);
    }
    for (const { path, file } of executorSystemPrograms(tool.executor)) {
      if (!existsSync(file)) problems.push(`${at(path)}: program '${file}' is not installed`);
    }
  });
  return problems;
}
