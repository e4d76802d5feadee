/**
 * Issue 4's acceptance flow in main, driven by the scripted model: a real statistics table
 * (spData's worldbank_df.csv) joined to real country polygons (spData's world.gpkg), the
 * unmatched keys reported, and the result styled as a graduated map — values and classes
 * checked for named countries against the CSV itself.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startScriptedModelServer, type ScriptedModelServer } from '../../e2e/model-server/scriptedModelServer.js';
import { haveFixtures, root, startApp } from './testApp.js';

const WORLD = join(root, 'e2e', 'fixtures', 'gis', 'world.gpkg');
const WB = join(root, 'e2e', 'fixtures', 'gis', 'worldbank_df.csv');
const ready = haveFixtures && existsSync(WORLD) && existsSync(WB);

/** HDI by ISO code, read from the CSV text itself (the referee, independent of GDAL). */
function hdiFromCsv(): Map<string, number> {
  const [header, ...rows] = readFileSync(WB, 'utf8').trim().split('\n');
  const cols = header!.split(',');
  const iso = cols.indexOf('iso_a2');
  const hdi = cols.indexOf('HDI');
  const out = new Map<string, number>();
  for (const row of rows) {
    // Names with commas are quoted; the numeric columns follow them, so read from the right.
    const cells = row.split(',');
    const shift = cells.length - cols.length;
    const code = cells[iso + shift]!.replace(/"/g, '');
    const value = Number(cells[hdi + shift]);
    if (code !== 'NA' && Number.isFinite(value)) out.set(code, value);
  }
  return out;
}

describe('join a statistics table to countries and map it', { skip: !ready }, () => {
  let model: ScriptedModelServer;
  let home: string | null = null;
  before(async () => {
    model = await startScriptedModelServer();
  });
  after(async () => {
    await model.close();
    if (home) rmSync(home, { recursive: true, force: true });
  });

  it('join_by_field reports unmatched keys; style.graduate classes the joined HDI', async () => {
    const app = await startApp(model);
    home = app.home;
    await app.services.invoke('entries/trigger', { entry: 'commands.set_mode', params: { mode: 'auto' } });
    model.script([
      { toolCalls: [{ name: 'layers_load', arguments: { path: WORLD } }] },
      { toolCalls: [{ name: 'layers_load', arguments: { path: WB } }] },
      {
        toolCalls: [
          {
            name: 'processing_run',
            arguments: {
              algorithm: 'join_by_field',
              params: { input: 'world', table: 'worldbank_df', input_keys: ['iso_a2'], table_keys: ['iso_a2'], fields: ['HDI'] },
              output_name: 'world_hdi',
            },
          },
        ],
      },
      { toolCalls: [{ name: 'style_graduate', arguments: { layer: 'world_hdi', field: 'HDI', method: 'quantile', classes: 5 } }] },
      { text: 'Mapped HDI in five quantile classes.' },
    ]);
    await app.services.invoke('chat/send', { text: 'join the World Bank table to the countries and map HDI' });
    await app.runFinished(1);

    const join = JSON.parse(String(model.requests[3]!.messages.filter((m) => m.role === 'tool').at(-1)!.content)) as {
      ok: boolean;
      data: { feature_count: number; notes: string[]; report?: Record<string, unknown> };
    };
    assert.equal(join.ok, true, JSON.stringify(join));
    assert.equal(join.data.feature_count, 177, 'every country kept (unmatched ones with empty fields)');
    const reportText = JSON.stringify(join.data.report ?? join.data.notes);
    assert.match(reportText, /XK/, 'Kosovo (XK) has no row in the table: reported as unmatched');

    const state = (await app.services.invoke('project/get', {})) as {
      layers: { id: string; name: string; style: { type: string; field?: string; breaks?: number[] } }[];
    };
    const layer = state.layers.find((l) => l.name === 'world_hdi')!;
    assert.equal(layer.style.type, 'graduated');
    assert.equal(layer.style.field, 'HDI');
    const breaks = layer.style.breaks!;
    assert.equal(breaks.length, 6);

    // Joined values for named countries equal the CSV's, and fall in the right classes.
    const geo = await app.services.serveData(`data/layers/${layer.id}.geojson`);
    const fc = JSON.parse(String(geo.body)) as { features: { properties: { iso_a2: string; HDI: number | null } }[] };
    const csv = hdiFromCsv();
    const classOf = (v: number) =>
      breaks.findIndex((b, i) => i < breaks.length - 1 && v >= b && (v < breaks[i + 1]! || i === breaks.length - 2));
    // The table has HDI for 47 countries, nearly all African (the others are NA, i.e. null).
    for (const code of ['NE', 'LY', 'TN', 'AO', 'MZ']) {
      const f = fc.features.find((x) => x.properties.iso_a2 === code)!;
      assert.ok(Math.abs(f.properties.HDI! - csv.get(code)!) < 1e-9, `${code}: joined ${f.properties.HDI} = CSV ${csv.get(code)}`);
    }
    assert.equal(classOf(csv.get('LY')!), 4, 'Libya (0.725, the highest in the table) is in the top class');
    assert.equal(classOf(csv.get('NE')!), 0, 'Niger (0.297, the lowest) is in the bottom class');
    const norway = fc.features.find((x) => x.properties.iso_a2 === 'NO')!;
    assert.equal(norway.properties.HDI, null, 'Norway has no HDI in the table: joined as empty, not invented');
    await app.services.close();
  });
});
