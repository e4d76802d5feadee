import assert from 'node:assert/strict';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import { ESLint } from 'eslint';

/** The layer rules of DESIGN.md, proven to fire (and not to fire) on small snippets. */
const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const eslint = new ESLint({ cwd: root });

async function restricted(file: string, code: string): Promise<boolean> {
  const [result] = await eslint.lintText(code, { filePath: join(root, file) });
  return result!.messages.some((m) => m.ruleId === 'no-restricted-imports');
}

const cases: [string, string, string, boolean][] = [
  ['renderer imports main', 'src-renderer/components/X.tsx', "import { x } from '../../src-main/agent/agentRunner.js'; x;", true],
  ['renderer imports node:fs', 'src-renderer/components/X.tsx', "import { readFileSync } from 'node:fs'; readFileSync;", true],
  [
    'renderer imports the shared contract',
    'src-renderer/components/X.tsx',
    "import { methods } from '../../src-shared/bridge/contract.js'; methods;",
    false,
  ],
  ['main imports gdal-async', 'src-main/agent/X.ts', "import gdal from 'gdal-async'; gdal;", true],
  ['tools import gdal-async', 'tools/layers/X.ts', "import gdal from 'gdal-async'; gdal;", true],
  ['the worker imports gdal-async', 'src-main/gis-worker/X.ts', "import gdal from 'gdal-async'; gdal;", false],
  ['src-shared imports node:path', 'src-shared/domain/X.ts', "import { join } from 'node:path'; join;", true],
  ['src-shared imports react', 'src-shared/domain/X.ts', "import React from 'react'; React;", true],
  ['src-shared imports main', 'src-shared/domain/X.ts', "import { x } from '../../src-main/store/layerRepo.js'; x;", true],
  [
    'src-shared uses maplibre types',
    'src-shared/style/X.ts',
    "import type { StyleSpecification } from 'maplibre-gl'; export type S = StyleSpecification;",
    false,
  ],
  ['tools import main', 'tools/layers/X.ts', "import { x } from '../../src-main/store/layerRepo.js'; x;", true],
  ['tools import node:fs', 'tools/layers/X.ts', "import { readFileSync } from 'node:fs'; readFileSync;", true],
  ['preload imports the zod contract', 'src-preload/X.ts', "import { methods } from '../src-shared/bridge/contract.js'; methods;", true],
  [
    'preload imports the name lists',
    'src-preload/X.ts',
    "import { METHOD_NAMES } from '../src-shared/bridge/names.js'; METHOD_NAMES;",
    false,
  ],
  ['worker imports the store', 'src-main/gis-worker/X.ts', "import { x } from '../store/layerRepo.js'; x;", true],
];

describe('layer import rules', () => {
  for (const [what, file, code, expected] of cases) {
    it(`${what}: ${expected ? 'refused' : 'allowed'}`, async () => {
      assert.equal(await restricted(file, code), expected);
    });
  }
});
