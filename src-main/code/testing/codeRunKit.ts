import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before } from 'node:test';
import { REPO_ROOT } from '../../plugins/plugin-host/buildPluginHost.js';
import { buildCodeHosts } from '../buildCodeHosts.js';
import type { BrokerLayer } from '../codeProtocol.js';

/** For the code-run tests: fixtures, the two children built once per file, a fake app home. */
export const FIXTURES = join(REPO_ROOT, '..', 'shared', 'fixtures', 'gis');
export const NC = join(FIXTURES, 'nc.gpkg');
export const ELEV = join(FIXTURES, 'elev.tif');
export const skipReason: string | false = existsSync(NC) && existsSync(ELEV) ? false : `GIS fixtures not found at ${FIXTURES}`;

export interface CodeRunKit {
  snippetHost: string;
  broker: string;
  /** A fake data folder (hidden from the children), with a secret file in it. */
  home: string;
  secret: string;
  /** The project's outputs folder, inside `home` as in the app. */
  outputsDir: string;
  /** A folder outside everything the run may write. */
  elsewhere: string;
  layers: BrokerLayer[];
}

/** Call at the top of a test file: builds the children (into node_modules/.cache, where gdal-async resolves) and a home. */
export function codeRunKit(): CodeRunKit {
  const kit = {} as CodeRunKit;
  const buildDir = join(REPO_ROOT, 'node_modules', '.cache', `mapwright-code-test-${process.pid}`);
  let tmp = '';
  before(async () => {
    mkdirSync(buildDir, { recursive: true });
    Object.assign(kit, await buildCodeHosts(buildDir));
    tmp = realpathSync(mkdtempSync(join(tmpdir(), 'mapwright-code-test-')));
    kit.home = join(tmp, 'home');
    kit.outputsDir = join(kit.home, 'projects', 'untitled-outputs');
    kit.elsewhere = join(tmp, 'elsewhere');
    mkdirSync(kit.outputsDir, { recursive: true });
    mkdirSync(kit.elsewhere);
    kit.secret = join(kit.home, 'settings.json');
    writeFileSync(kit.secret, '{"apiKey":"sk-secret"}');
    kit.layers = [
      { name: 'nc', kind: 'vector', source: NC, sublayer: null },
      { name: 'elev', kind: 'raster', source: ELEV, sublayer: null },
    ];
  });
  after(() => {
    rmSync(buildDir, { recursive: true, force: true });
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });
  return kit;
}
