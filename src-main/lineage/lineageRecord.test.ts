/**
 * What lineage records of a call (issue 17): the inputs it read, resolved through the project;
 * the arguments with secrets out and huge text cut (and said so); the checksums of real files,
 * computed here independently; and a stamp that fails or has nothing to stamp never fails the call.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { Lineage, MAX_PARAMETERS_CHARS, parseStoredLineage } from '../../src-shared/domain/lineage.js';
import { fakeLayer, fakeProject } from '../../tools/toolTestFakes.js';
import { saveQuery } from '../../tools/inspect/saveQuery.js';
import { runAlgorithm } from '../../tools/processing/runAlgorithm.js';
import { loadLayer } from '../../tools/layers/loadLayer.js';
import type { ProducedFile } from '../tool-host/toolDispatcher.js';
import type { RegisteredTool } from '../tool-host/toolRegistry.js';
import { inputChecksum, MAX_HASHED_BYTES } from './inputChecksum.js';
import { lineageInputs } from './lineageInputs.js';
import { recordedParameters, withoutSecrets } from './lineageParameters.js';
import { buildLineage, createLineageStamper } from './lineageStamper.js';

const dir = mkdtempSync(join(tmpdir(), 'mapwright-lineage-unit-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const sha = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');

const roads = fakeLayer({ name: 'roads', id: 'id-roads', kind: 'vector', source: '/data/roads.gpkg', sublayer: 'roads' });
const zones = fakeLayer({ name: 'zones', kind: 'vector', source: '/data/zones.shp' });
const dem = fakeLayer({ name: 'dem', kind: 'raster', source: '/data/dem.tif' });
const project = fakeProject([roads, zones, dem]);

describe('the inputs of a call', () => {
  it('processing: the algorithm’s layer params, by name or id, resolved to their sources', () => {
    const args = { algorithm: 'intersection', params: { input: 'id-roads', overlay: 'zones' }, output_path: '/out/x.gpkg' };
    assert.deepEqual(lineageInputs(runAlgorithm, args, project, '/out/x.gpkg|layername=x'), [
      '/data/roads.gpkg|layername=roads',
      '/data/zones.shp',
    ]);
  });

  it('a saved query: the layers its SQL reads after FROM or JOIN, not a column of the same name', () => {
    const sql = 'SELECT r.dem, z.* FROM "roads" r JOIN zones z ON st_intersects(r.geom, z.geom)';
    assert.deepEqual(lineageInputs(saveQuery, { sql, name: 'q' }, project, '/out/q.gpkg'), [
      '/data/roads.gpkg|layername=roads',
      '/data/zones.shp',
    ]);
  });

  it('a declared source parameter as given; the produced file itself is never its own input', () => {
    assert.deepEqual(lineageInputs(loadLayer, { path: '/data/a.geojson' }, project, '/out/b.gpkg'), ['/data/a.geojson']);
    assert.deepEqual(lineageInputs(loadLayer, { path: '/out/b.gpkg' }, project, '/out/b.gpkg|layername=b'), []);
  });

  it('names that are no layer of the project are not inputs', () => {
    assert.deepEqual(
      lineageInputs(runAlgorithm, { algorithm: 'buffer', params: { input: 'nothing', distance: 1 } }, project, '/o.gpkg'),
      [],
    );
  });
});

describe('the recorded arguments', () => {
  it('keep hostile text exactly when it fits', () => {
    const args = { sql: `SELECT '"'; -- </Item>\u0000 ⛰️`, n: 1.5, flag: false, list: [null, 'x'] };
    assert.deepEqual(recordedParameters(args), { parameters: args, truncated: false });
  });

  it('cut 100 KB of text and say so; the record stays valid and under the cap', () => {
    const huge = `'"<x>${'é'.repeat(100_000)}`;
    const { parameters, truncated } = recordedParameters({ sql: huge, name: 'q' });
    assert.equal(truncated, true);
    const sql = (parameters as { sql: string }).sql;
    assert.ok(sql.startsWith(`'"<x>éé`));
    assert.match(sql, /… \[truncated: 100005 characters\]$/);
    assert.ok(JSON.stringify(parameters).length <= MAX_PARAMETERS_CHARS);
    // Many medium strings: still under the cap.
    const many = recordedParameters({ parts: Array.from({ length: 400 }, () => 'y'.repeat(3000)) });
    assert.equal(many.truncated, true);
    assert.ok(JSON.stringify(many.parameters).length <= MAX_PARAMETERS_CHARS);
  });

  it('never keep credentials: URL passwords, secret query values, secret-named arguments', () => {
    assert.equal(
      withoutSecrets('https://me:hunter2@example.com/a.tif?x=1&api_key=abc&token=t'),
      'https://example.com/a.tif?x=1&api_key=REDACTED&token=REDACTED',
    );
    const { parameters } = recordedParameters({ url: 'postgres://u:pw@db/x', password: 'pw', passes: 3, nested: { access_token: 'zz' } });
    assert.deepEqual(parameters, { url: 'postgres://db/x', password: 'REDACTED', passes: 3, nested: { access_token: 'REDACTED' } });
    assert.ok(!JSON.stringify(parameters).includes('pw') && !JSON.stringify(parameters).includes('zz'));
  });
});

describe('input checksums', () => {
  it('a file: its streamed SHA-256, size and time', async () => {
    const file = join(dir, 'a.geojson');
    writeFileSync(file, '{"type":"FeatureCollection","features":[]}');
    const facts = await inputChecksum(`${file}|layername=a`);
    assert.equal(facts.sha256, sha('{"type":"FeatureCollection","features":[]}'));
    assert.equal(facts.bytes, 42);
    assert.equal(facts.sublayer, 'a');
    assert.ok(Date.parse(facts.modified!) > 0);
    assert.equal(facts.note, undefined);
  });

  it('a Shapefile: the .shp, said so; a folder, a database, a URL, a missing file: null with the reason', async () => {
    const shp = join(dir, 'z.shp');
    writeFileSync(shp, 'shp bytes');
    assert.equal((await inputChecksum(shp)).sha256, sha('shp bytes'));
    assert.match((await inputChecksum(shp)).note!, /\.shp only/);
    const folder = join(dir, 'folder');
    mkdirSync(folder);
    const cases: [string, RegExp][] = [
      [folder, /a folder/],
      ['postgis://abc|layername=public.t', /database/],
      ['https://user:secret@example.com/x.tif?token=abc', /network/],
      [join(dir, 'gone.gpkg'), /not found/],
    ];
    for (const [source, note] of cases) {
      const facts = await inputChecksum(source);
      assert.equal(facts.sha256, null, source);
      assert.match(facts.note!, note, source);
      assert.ok(!JSON.stringify(facts).includes('secret') && !JSON.stringify(facts).includes('abc&'), 'no credentials');
    }
  });

  it('a file over the cap is not read (a sparse file of cap + 1 byte)', async () => {
    const big = join(dir, 'big.tif');
    writeFileSync(big, '');
    const { truncateSync } = await import('node:fs');
    truncateSync(big, MAX_HASHED_BYTES + 1);
    const started = Date.now();
    const facts = await inputChecksum(big);
    assert.equal(facts.sha256, null);
    assert.equal(facts.bytes, MAX_HASHED_BYTES + 1);
    assert.match(facts.note!, /over 512 MB/);
    assert.ok(Date.now() - started < 1000);
  });
});

describe('the stamper', () => {
  const registered = {
    def: runAlgorithm,
    definitionHash: 'f'.repeat(16),
    wireName: 'processing_run',
    inputSchema: {},
  } as unknown as RegisteredTool;
  const outputs = join(dir, 'outputs');
  mkdirSync(outputs);
  const produced = (path: string): ProducedFile => ({
    tool: registered,
    args: { algorithm: 'buffer', params: { input: 'roads', distance: 5 }, output_path: path },
    request: { path: `${path}|layername=x` },
    startedAt: Date.parse('2026-12-02T10:00:00Z'),
    signal: new AbortController().signal,
  });

  it('builds a record the shared schema accepts, and writes it for an output in the outputs folder', async () => {
    const out = join(outputs, 'x.gpkg');
    writeFileSync(out, 'gpkg');
    const writes: unknown[] = [];
    const stamp = createLineageStamper({
      project,
      outputsDir: () => outputs,
      write: async (p) => void writes.push(p),
      appVersion: '9.9.9',
      warn: (m) => assert.fail(m),
    });
    await stamp(produced(out));
    assert.equal(writes.length, 1);
    const w = writes[0] as { path: string; sublayer: string; lineage: Lineage };
    assert.equal(w.path, out);
    assert.equal(w.sublayer, 'x');
    assert.equal(w.lineage.app, 'Mapwright 9.9.9');
    assert.equal(w.lineage.startedAt, '2026-12-02T10:00:00.000Z');
    assert.deepEqual(
      w.lineage.inputs.map((i) => [i.path, i.sublayer, i.note]),
      [['/data/roads.gpkg', 'roads', 'not found when the output was made']],
    );
    assert.ok(Lineage.safeParse(w.lineage).success);
    assert.ok(parseStoredLineage(JSON.stringify(w.lineage)).ok);
  });

  it('leaves files outside the outputs folder alone (a person’s file, a link out, a database table)', async () => {
    const mine = join(dir, 'mine.gpkg');
    writeFileSync(mine, 'x');
    const link = join(outputs, 'link.gpkg');
    symlinkSync(mine, link);
    const stamp = createLineageStamper({
      project,
      outputsDir: () => outputs,
      write: () => assert.fail('nothing to write'),
      appVersion: '1',
      warn: (m) => assert.fail(m),
    });
    for (const path of [mine, link, 'postgis://abc']) await stamp(produced(path));
  });

  it('a download keeps its bytes: its lineage is asked for beside the file', async () => {
    const out = join(outputs, 'download.gpkg');
    writeFileSync(out, 'gpkg');
    const writes: { beside: boolean }[] = [];
    const download = { ...registered, def: { ...registered.def, id: 'web.download' } } as RegisteredTool;
    const stamp = createLineageStamper({
      project,
      outputsDir: () => outputs,
      write: async (p) => void writes.push(p as { beside: boolean }),
      appVersion: '1',
      warn: (m) => assert.fail(m),
    });
    await stamp({ ...produced(out), tool: download });
    await stamp(produced(out));
    assert.deepEqual(
      writes.map((w) => w.beside),
      [true, false],
    );
  });

  it('a failed write is reported, never thrown', async () => {
    const out = join(outputs, 'y.gpkg');
    writeFileSync(out, 'gpkg');
    const warned: string[] = [];
    const stamp = createLineageStamper({
      project,
      outputsDir: () => outputs,
      write: () => Promise.reject(new Error('disk full')),
      appVersion: '1',
      warn: (m) => warned.push(m),
    });
    await stamp(produced(out));
    assert.equal(warned.length, 1);
    assert.match(warned[0]!, /y\.gpkg.*disk full/);
  });

  it('the time is the stamp’s, the start is the call’s', async () => {
    const l = await buildLineage(produced(join(outputs, 'x.gpkg')), {
      project,
      appVersion: '1',
      now: () => new Date('2026-12-02T10:00:05Z'),
    });
    assert.equal(l.createdAt, '2026-12-02T10:00:05.000Z');
  });
});
