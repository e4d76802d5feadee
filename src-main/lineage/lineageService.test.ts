/**
 * Issue 17, end to end in the main process: the model runs a processing algorithm, the output
 * file records its lineage (the input's SHA-256 computed here, independently), and
 * `inspect_layer_info` shows it. Real worker, real files, scripted model.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import type { ScriptedModelServer } from '../../e2e/model-server/scriptedModelServer.js';
import { LINEAGE_STANDARD_URI, parseStoredLineage } from '../../src-shared/domain/lineage.js';
import type { Layer } from '../../src-shared/domain/layer.js';
import { parseSource } from '../../src-shared/domain/source.js';
import { fixtures, haveFixtures, scriptedToolCall, startApp } from '../composition/testApp.js';
import { scriptedModelSuite } from '../model/scriptedModelSuite.js';

const SHP = join(fixtures, 'scot_BNG.shp');
const sha256 = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

describe('a processing output carries its lineage', { skip: haveFixtures ? false : 'GIS fixtures not found' }, () => {
  let model: ScriptedModelServer;
  let app: Awaited<ReturnType<typeof startApp>>;
  scriptedModelSuite((started) => (model = started));
  before(async () => {
    app = await startApp(model);
    const loaded = await scriptedToolCall(app, model, { name: 'layers_load', arguments: { path: SHP } });
    assert.ok(loaded.result.ok, JSON.stringify(loaded.result));
  });

  it('records tool, version, hash, parameters and the input checksum in the GeoPackage; layer_info shows it', async () => {
    const started = Date.now();
    const { result } = await scriptedToolCall<{ output: string }>(app, model, {
      name: 'processing_run',
      arguments: { algorithm: 'buffer', params: { input: 'scot_BNG', distance: 500 } },
    });
    assert.ok(result.ok, JSON.stringify(result));
    const { path, sublayer } = parseSource(result.data!.output);

    const db = new Database(path, { readonly: true });
    const row = db
      .prepare(
        `SELECT m.metadata, r.table_name FROM gpkg_metadata m JOIN gpkg_metadata_reference r ON r.md_file_id = m.id
         WHERE m.md_standard_uri = ?`,
      )
      .get(LINEAGE_STANDARD_URI) as { metadata: string; table_name: string };
    db.close();
    assert.equal(row.table_name, sublayer);
    const stored = parseStoredLineage(row.metadata);
    assert.ok(stored.ok, JSON.stringify(stored));
    const l = stored.lineage;
    assert.equal(l.tool, 'processing.run');
    assert.match(l.version, /^\d+\.\d+\.\d+$/);
    assert.match(l.definitionHash!, /^[0-9a-f]{16,64}$/);
    assert.equal(l.app, 'Mapwright 0.1.0');
    assert.ok(Date.parse(l.startedAt) >= started - 1000 && Date.parse(l.createdAt) >= Date.parse(l.startedAt));
    assert.deepEqual((l.parameters as { params: unknown }).params, { input: 'scot_BNG', distance: 500, segments: 8, dissolve: false });
    assert.equal((l.parameters as { output_path: string }).output_path, path);
    assert.equal(l.inputs.length, 1);
    assert.equal(l.inputs[0]!.path, SHP);
    assert.equal(l.inputs[0]!.sha256, sha256(SHP));
    assert.equal(l.inputs[0]!.bytes, readFileSync(SHP).length);
    assert.match(l.inputs[0]!.note!, /\.shp only/);

    const layers = ((await app.services.invoke('project/get', {})) as { layers: Layer[] }).layers;
    const output = layers.find((x) => x.source === path)!;
    assert.equal(output.info.featureCount, layers.find((x) => x.name === 'scot_BNG')!.info.featureCount, 'the output still reads');
    const info = await scriptedToolCall<{ lineage: { tool: string; inputs: { path: string; sha256: string }[] } }>(
      app,
      model,
      { name: 'inspect_layer_info', arguments: { layer: output.name } },
      { approve: false },
    );
    assert.ok(info.result.ok, JSON.stringify(info.result));
    assert.equal(info.result.data!.lineage.tool, 'processing.run');
    // Read afresh from the stamped file: every feature is still there.
    assert.equal((info.result.data as unknown as { feature_count: number }).feature_count, output.info.featureCount);
    assert.deepEqual(info.result.data!.lineage.inputs[0], {
      path: SHP,
      sha256: sha256(SHP).slice(0, 12),
      note: l.inputs[0]!.note,
    });
  });

  it('a layer the person loaded has no lineage in layer_info, and its file is not touched', async () => {
    const before = sha256(SHP);
    const info = await scriptedToolCall<Record<string, unknown>>(
      app,
      model,
      { name: 'inspect_layer_info', arguments: { layer: 'scot_BNG' } },
      { approve: false },
    );
    assert.ok(info.result.ok);
    assert.equal(info.result.data!.lineage, undefined);
    assert.equal(sha256(SHP), before);
  });
});
