import { watch, type FSWatcher } from 'chokidar';
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

export interface RootWatcher {
  close(): Promise<void>;
}

/**
 * Calls `onChange` on any change under a skills folder (SKILL.md files and references) or a
 * plugins folder (which passes `ignore` for bulky subfolders such as node_modules).
 * A folder that does not exist yet is waited for by watching its parent alone (depth 0), so
 * watching `skills/` beside a project never means watching the whole folder it sits in; a
 * missing parent is not watched at all. Not `persistent`: watching skills never keeps the
 * process alive on its own (the host's server or window does).
 */
export async function watchSkillRoot(root: string, onChange: () => void, options: { ignore?: RegExp } = {}): Promise<RootWatcher> {
  const dir = resolve(root);
  let current: FSWatcher | null = null;
  let closed = false;

  const ready = (w: FSWatcher) => new Promise<void>((r) => w.once('ready', () => r()));

  async function watchRoot(): Promise<void> {
    const w = watch(dir, {
      ignoreInitial: true,
      persistent: false,
      depth: 3,
      ignored: (p) => /(^|[/\\])\.[^/\\]/.test(p.slice(dir.length)) || (options.ignore?.test(p.slice(dir.length)) ?? false),
    });
    w.on('all', (event, path) => {
      if (event === 'unlinkDir' && resolve(path) === dir) {
        // The folder itself went away: forget its skills and wait for it to come back.
        onChange();
        void switchTo(waitForRoot);
        return;
      }
      onChange();
    });
    w.on('error', () => {}); // a vanished file mid-scan is not worth a crash
    current = w;
    await ready(w);
  }

  async function waitForRoot(): Promise<void> {
    const parent = dirname(dir);
    if (!existsSync(parent)) return;
    const w = watch(parent, {
      ignoreInitial: true,
      persistent: false,
      depth: 0,
      ignored: (p) => resolve(p) !== parent && resolve(p) !== dir,
    });
    w.on('addDir', (path) => {
      if (resolve(path) !== dir) return;
      onChange();
      void switchTo(watchRoot);
    });
    w.on('error', () => {});
    current = w;
    await ready(w);
    // Created between the check and the watch being ready.
    if (existsSync(dir)) {
      onChange();
      await switchTo(watchRoot);
    }
  }

  async function switchTo(next: () => Promise<void>): Promise<void> {
    const previous = current;
    current = null;
    await previous?.close();
    if (!closed) await next();
  }

  await (existsSync(dir) ? watchRoot() : waitForRoot());
  return {
    async close() {
      closed = true;
      const w = current;
      current = null;
      await w?.close();
    },
  };
}
