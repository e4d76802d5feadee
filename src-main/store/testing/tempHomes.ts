import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after } from 'node:test';
import { ProjectStore } from '../projectStore.js';

/**
 * For tests: call at the top of a test file. Returns a maker of fresh temp folders (an app home
 * each, named `<prefix>XXXXXX`); every folder it made is removed when the file's tests end.
 */
export function tempHomes(prefix: string): () => string {
  const homes: string[] = [];
  after(() => homes.forEach((h) => rmSync(h, { recursive: true, force: true })));
  return () => {
    const home = mkdtempSync(join(tmpdir(), prefix));
    homes.push(home);
    return home;
  };
}

/** For tests: like `tempHomes`, each call opening the project store of a fresh home. */
export function tempProjectStores(prefix: string): () => { home: string; store: ProjectStore } {
  const freshHome = tempHomes(prefix);
  return () => {
    const home = freshHome();
    return { home, store: ProjectStore.openInHome(home) };
  };
}
