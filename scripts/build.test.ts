import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { build } from 'esbuild';
import { bundles } from '../electron.config.js';
import { options } from './build.js';

describe('bundles', () => {
  it('every Node bundle builds without a warning (import.meta in CommonJS would leave paths empty)', async () => {
    for (const spec of bundles.filter((b) => b.platform === 'node')) {
      const result = await build({ ...options(spec), write: false, logLevel: 'silent' });
      assert.deepEqual(
        result.warnings.map((w) => `${w.location?.file}:${w.location?.line} ${w.text}`),
        [],
        spec.name,
      );
    }
  });
});
