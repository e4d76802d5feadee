import { watchSkillRoot } from '../skills/watchSkillRoot.js';

export interface RootsWatch {
  close(): Promise<void>;
}

/**
 * Watches several folders (missing ones are waited for) and calls `reload` once per burst of
 * file events: copying a plugin folder in is dozens of events and should be one reload.
 * Resolves once every folder is watched.
 */
export async function watchRootsDebounced(
  dirs: readonly string[],
  reload: () => void,
  options: { debounceMs: number; ignore?: RegExp },
): Promise<RootsWatch> {
  let timer: NodeJS.Timeout | null = null;
  let closed = false;
  const schedule = () => {
    if (closed) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = null;
      reload();
    }, options.debounceMs);
  };
  const watchers = await Promise.all(dirs.map((dir) => watchSkillRoot(dir, schedule, { ignore: options.ignore })));
  return {
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      timer = null;
      await Promise.all(watchers.map((w) => w.close()));
    },
  };
}
