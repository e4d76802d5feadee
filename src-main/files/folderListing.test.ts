import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { PrivatePaths } from '../security/privatePaths.js';
import { FileTokens } from './fileTokens.js';
import { browseRoot, listFolder } from './folderListing.js';

describe('folder listing (issue #15)', () => {
  let base: string;
  let root: string;
  let outside: string;
  let home: string;
  const tokens = new FileTokens();
  let deps: Parameters<typeof listFolder>[0];

  before(() => {
    base = realpathSync(mkdtempSync(join(tmpdir(), 'mw-browse-')));
    root = join(base, 'root');
    outside = join(base, 'outside');
    home = join(root, 'MapwrightData'); // the data folder inside the browse root
    mkdirSync(join(root, 'data', 'deep'), { recursive: true });
    mkdirSync(join(home, 'secrets'), { recursive: true });
    mkdirSync(outside);
    mkdirSync(join(root, '.ssh'));
    writeFileSync(join(root, '.ssh', 'id_rsa'), 'key');
    symlinkSync(join(root, '.ssh', 'id_rsa'), join(root, 'data', 'key-link'));
    writeFileSync(join(root, 'data', 'nc.gpkg'), 'x'.repeat(10));
    writeFileSync(join(root, 'data', 'notes.txt'), 'hi');
    writeFileSync(join(root, 'data', '.hidden.gpkg'), '');
    writeFileSync(join(root, 'b.shp'), '');
    writeFileSync(join(outside, 'secret.gpkg'), '');
    writeFileSync(join(home, 'secrets', 'model-keys.json'), '{}');
    symlinkSync(outside, join(root, 'escape'));
    symlinkSync(join(outside, 'secret.gpkg'), join(root, 'data', 'linked.gpkg'));
    symlinkSync(join(root, 'data', 'nc.gpkg'), join(root, 'inside-link.gpkg'));
    symlinkSync(home, join(root, 'data', 'to-home'));
    const priv = PrivatePaths.forProject({
      home,
      projectPath: join(home, 'projects', 'p.mapwright'),
      outputsDir: join(home, 'projects', 'p.mapwright-outputs'),
    });
    deps = { root, isPrivate: (p) => priv.isPrivate(p), issueToken: (p) => tokens.issue(p) };
  });
  after(() => rmSync(base, { recursive: true, force: true }));

  it('starts at the root: folders first, dotfiles hidden, no parent, links out of the root and the data folder left out', async () => {
    const l = await listFolder(deps);
    assert.equal(l.dir, root);
    assert.equal(l.parent, null);
    assert.deepEqual(
      l.entries.map((e) => `${e.kind}:${e.name}`),
      ['dir:data', 'file:b.shp', 'file:inside-link.gpkg'],
    );
    assert.equal(l.truncated, false);
  });

  it('lists a subfolder with sizes, GIS marks and one token per file that resolves to that file', async () => {
    const l = await listFolder(deps, join(root, 'data'));
    assert.equal(l.parent, root);
    assert.deepEqual(
      l.entries.map((e) => e.name),
      ['deep', 'nc.gpkg', 'notes.txt'],
    );
    const nc = l.entries.find((e) => e.name === 'nc.gpkg')!;
    assert.equal(nc.size, 10);
    assert.equal(nc.gis, true);
    assert.equal(l.entries.find((e) => e.name === 'notes.txt')!.gis, false);
    assert.equal(l.entries.find((e) => e.name === 'deep')!.token, undefined);
    assert.equal(tokens.resolve(nc.token!), join(root, 'data', 'nc.gpkg'));
  });

  it('refuses .., a link out of the root, the data folder, a NUL, a relative path and a file', async () => {
    await assert.rejects(listFolder(deps, join(root, '..')), /Only folders under/);
    await assert.rejects(listFolder(deps, join(root, 'data', '..', '..', 'outside')), /Only folders under/);
    await assert.rejects(listFolder(deps, join(root, 'escape')), /Only folders under/);
    await assert.rejects(listFolder(deps, home), /Mapwright's own files/);
    await assert.rejects(listFolder(deps, join(home, 'secrets')), /Mapwright's own files/);
    await assert.rejects(listFolder(deps, join(root, 'data', 'to-home')), /Mapwright's own files/);
    await assert.rejects(listFolder(deps, join(root, '.ssh')), /Hidden folders/);
    await assert.rejects(listFolder(deps, join(root, 'data', '..', '.ssh')), /Hidden folders/);
    await assert.rejects(listFolder(deps, `${root}/data\0/x`), /NUL/);
    await assert.rejects(listFolder(deps, 'data'), /absolute/);
    await assert.rejects(listFolder(deps, join(root, 'b.shp')), /Not a folder/);
    await assert.rejects(listFolder(deps, join(root, 'missing')), /No such folder/);
  });

  it('caps the entries and says so', async () => {
    const l = await listFolder({ ...deps, maxEntries: 2 });
    assert.equal(l.entries.length, 2);
    assert.equal(l.truncated, true);
  });

  it('browses from MAPWRIGHT_BROWSE_ROOT when set to an absolute path, else the home folder', () => {
    assert.equal(browseRoot({ MAPWRIGHT_BROWSE_ROOT: '/srv/data' }), '/srv/data');
    assert.notEqual(browseRoot({ MAPWRIGHT_BROWSE_ROOT: 'relative' }), 'relative');
  });
});

describe('file tokens', () => {
  it('resolve to the exact path they were issued for; unknown, forged and expired tokens resolve to nothing', () => {
    let now = 1_000;
    const t = new FileTokens(() => now);
    const a = t.issue('/data/a.gpkg');
    const b = t.issue('/data/b.gpkg');
    assert.notEqual(a, b);
    assert.equal(t.resolve(a), '/data/a.gpkg');
    assert.equal(t.resolve(b), '/data/b.gpkg');
    assert.equal(t.resolve('/data/a.gpkg'), null);
    assert.equal(t.resolve(`${a}x`), null);
    now += 16 * 60_000;
    assert.equal(t.resolve(a), null);
  });
});
