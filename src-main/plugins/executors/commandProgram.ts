import { constants, accessSync, realpathSync, statSync } from 'node:fs';
import { isAbsolute, join, sep } from 'node:path';

/** The only PATH a plugin command sees, and the one its bare program names are looked up in. */
export const SAFE_PATH = '/usr/local/bin:/usr/bin:/bin';

/** A program a plugin names that cannot be run, with the reason. */
export class ProgramError extends Error {
  constructor(
    message: string,
    /** `outside`: the name escapes the plugin folder; `missing`: nothing runnable there. */
    readonly reason: 'invalid' | 'outside' | 'missing',
  ) {
    super(message);
    this.name = 'ProgramError';
  }
}

/**
 * The absolute path of a plugin's program:
 *   - an absolute path (`/usr/bin/gdal_translate`) is used as written;
 *   - a bare name (`gdal_translate`, no slash) is looked up in `SAFE_PATH` only;
 *   - a relative path with a slash (`bin/slope.sh`, `./run`) is a file inside the plugin
 *     folder, resolved through `..` and symbolic links, and refused when it lands outside.
 * In every case it must be an executable regular file.
 */
export function resolveProgram(program: string, pluginDir: string): string {
  if (!program || program.includes('\0')) throw new ProgramError(`Program name '${program}' is empty or contains a NUL byte.`, 'invalid');
  if (isAbsolute(program)) return runnable(program, program);
  if (!program.includes('/')) {
    for (const dir of SAFE_PATH.split(':')) {
      const candidate = join(dir, program);
      if (isRunnable(candidate)) return candidate;
    }
    throw new ProgramError(`Program '${program}' was not found in ${SAFE_PATH}.`, 'missing');
  }
  let root: string;
  try {
    root = realpathSync(pluginDir);
  } catch {
    throw new ProgramError(`The plugin folder '${pluginDir}' does not exist.`, 'missing');
  }
  let real: string;
  try {
    real = realpathSync(join(root, program));
  } catch {
    throw new ProgramError(`Program '${program}' does not exist in the plugin folder.`, 'missing');
  }
  if (!real.startsWith(root + sep))
    throw new ProgramError(`Program '${program}' resolves to '${real}', outside the plugin folder.`, 'outside');
  return runnable(real, program);
}

function isRunnable(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function runnable(path: string, written: string): string {
  if (!isRunnable(path)) throw new ProgramError(`Program '${written}' is not an executable file.`, 'missing');
  return path;
}
