import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join, relative, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Runs node's test runner over a suite's files. Node 20's `--test` takes no globs, so the
 * files are found here. Suites: `unit` (every *.test.ts outside e2e/specs) and `e2e`
 * (e2e/specs/*.spec.ts, one file at a time: they share Chromium and ports).
 */
const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SKIP_DIRS = new Set(['node_modules', 'dist', '.git', '.electron-native']);

function find(dir: string, test: (name: string) => boolean, out: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) {
      if (!SKIP_DIRS.has(entry.name)) find(join(dir, entry.name), test, out);
    } else if (test(entry.name)) out.push(relative(root, join(dir, entry.name)));
  }
  return out.sort();
}

const suite = process.argv[2];
const files =
  suite === 'unit'
    ? ['src-shared', 'src-main', 'src-renderer', 'src-preload', 'tools', 'scripts', 'e2e/model-server', 'e2e/electron'].flatMap((d) =>
        find(join(root, d), (n) => n.endsWith('.test.ts')),
      )
    : suite === 'e2e'
      ? find(join(root, 'e2e', 'specs'), (n) => n.endsWith('.spec.ts'))
      : suite === 'electron'
        ? find(join(root, 'e2e', 'electron'), (n) => n.endsWith('.spec.ts'))
        : null;
if (!files) {
  process.stderr.write('usage: tsx scripts/run-tests.ts unit|e2e|electron\n');
  process.exit(2);
}
const args = ['--import', 'tsx', '--test', '--test-reporter=spec', ...(suite === 'unit' ? [] : ['--test-concurrency=1']), ...files];
const result = spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit', env: { ...process.env, GDAL_PAM_ENABLED: 'NO' } });
process.exit(result.status ?? 1);
