/**
 * The 3D tools below the dispatcher: `style.extrude` refuses what cannot be raised (not
 * polygons, not a number) naming the fields that would do, and saves an extrude style;
 * `map.set_terrain` refuses non-DEMs, saves the terrain in the DEM's style (so it is undone
 * and reloaded with the project), keeps one terrain per map, and turns it off.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Layer, type LayerInfo } from '../../src-shared/domain/layer.js';
import type { Handles, ProjectHandle } from '../../src-shared/tools/handles.js';
import { applyToolRules } from '../../src-shared/tools/paramRules/toolRules.js';
import type { ToolDefinition } from '../../src-shared/tools/toolSdk.js';
import { expectRefusal } from '../expectRefusal.js';
import { fakeLayer, fakeProject } from '../toolTestFakes.js';
import { extrude } from '../style/extrude.js';
import { setTerrain } from './setTerrain.js';

const band = { dataType: 'Int16', nodata: -32768, min: 141, max: 547 };

function project(): ProjectHandle & { layers: Layer[] } {
  const layers: Layer[] = [
    fakeLayer({
      name: 'nc',
      kind: 'vector',
      source: '/d/nc.gpkg',
      info: {
        fields: [
          { name: 'NAME', type: 'string' },
          { name: 'AREA', type: 'real' },
          { name: 'BIR74', type: 'real' },
        ],
      },
    }),
    fakeLayer({ name: 'roads', kind: 'vector', source: '/d/roads.gpkg', info: { geometryType: 'MultiLineString' } }),
    fakeLayer({ name: 'elev', kind: 'raster', source: '/d/elev.tif', info: { bands: [{ index: 1, ...band }] } }),
    fakeLayer({ name: 'dem2', kind: 'raster', source: '/d/dem2.tif', info: { bands: [{ index: 1, ...band }] } }),
    fakeLayer({
      name: 'landsat',
      kind: 'raster',
      source: '/d/l7.tif',
      info: { bands: [1, 2, 3].map((index) => ({ index, ...band })) as LayerInfo['bands'] },
    }),
  ].map(withValidStyle);
  return {
    ...fakeProject(layers),
    layers,
    // As the store: the patched layer must still parse.
    updateLayer: (id, patch) => {
      const i = layers.findIndex((l) => l.id === id);
      layers[i] = Layer.parse({ ...layers[i]!, ...patch });
      return layers[i]!;
    },
  };
}

/** fakeLayer's styles are bare kinds; the store (Layer.parse) wants whole ones. */
function withValidStyle(layer: Layer): Layer {
  const style =
    layer.kind === 'raster'
      ? { type: 'grey', band: 1, min: null, max: null }
      : { type: 'simple', fill: '#e4572e', stroke: '#222222', strokeWidth: 1, pointRadius: 5 };
  return Layer.parse({ ...layer, style });
}

const signal = new AbortController().signal;

async function run(def: ToolDefinition, handles: Handles, raw: Record<string, unknown>) {
  const args = def.input.parse(raw);
  applyToolRules(def, args, handles.project, () => []);
  const prepared = def.prepare ? await def.prepare(args, { handles, caller: 'model', signal }) : { args };
  return (await def.execute(prepared.args, { handles, caller: 'model', signal, progress: () => undefined })) as Record<string, unknown>;
}

function setup() {
  const p = project();
  return { p, handles: { project: p } as unknown as Handles };
}

describe('style.extrude', () => {
  test('refuses lines, unknown and text fields, naming the numeric fields', async () => {
    const { handles } = setup();
    const line = await expectRefusal(run(extrude, handles, { layer: 'roads', field: 'x' }));
    assert.equal(line.code, 'invalid_params');
    assert.match(line.message, /this tool needs a polygon layer/);
    const text = await expectRefusal(run(extrude, handles, { layer: 'nc', field: 'NAME' }));
    assert.equal(text.code, 'invalid_params');
    assert.match(text.hint ?? '', /AREA \(real\), BIR74 \(real\)/);
    const missing = await expectRefusal(run(extrude, handles, { layer: 'nc', field: 'bir74' }));
    assert.match(missing.message, /Did you mean 'BIR74'/);
    const raster = await expectRefusal(run(extrude, handles, { layer: 'elev', field: 'AREA' }));
    assert.match(raster.message, /is a raster/);
  });

  test('saves an extrude style: field, scale, colour, the outline kept', async () => {
    const { p, handles } = setup();
    const result = await run(extrude, handles, { layer: 'nc', field: 'BIR74', scale: 2, color: '#3366cc' });
    assert.deepEqual(result, { id: 'nc', name: 'nc', style: 'extrude', field: 'BIR74', scale: 2, color: '#3366cc' });
    assert.deepEqual(p.layers[0]!.style, {
      type: 'extrude',
      field: 'BIR74',
      scale: 2,
      fill: '#3366cc',
      stroke: '#222222',
      strokeWidth: 1,
      pointRadius: 5,
    });
  });
});

describe('map.set_terrain', () => {
  test('refuses vector layers and multi-band rasters', async () => {
    const { handles } = setup();
    assert.match((await expectRefusal(run(setTerrain, handles, { layer: 'nc' }))).message, /is a vector layer/);
    const rgb = await expectRefusal(run(setTerrain, handles, { layer: 'landsat' }));
    assert.equal(rgb.code, 'invalid_params');
    assert.match(rgb.message, /3 bands; terrain needs a single-band/);
  });

  test('saves the terrain in the DEM style, one layer at a time, and turns it off', async () => {
    const { p, handles } = setup();
    const on = await run(setTerrain, handles, { layer: 'elev', exaggeration: 3 });
    assert.deepEqual(on, { id: 'elev', name: 'elev', terrain: 'on', exaggeration: 3, hillshade: true, pitch: 60 });
    const elev = () => p.layers.find((l) => l.name === 'elev')!.style;
    const dem2 = () => p.layers.find((l) => l.name === 'dem2')!.style;
    assert.deepEqual(elev(), { type: 'grey', band: 1, min: null, max: null, terrain: { exaggeration: 3, hillshade: true, pitch: 60 } });

    await run(setTerrain, handles, { layer: 'dem2', hillshade: false, pitch: 45 });
    assert.equal('terrain' in elev(), false, 'the other DEM lost its terrain');
    assert.deepEqual((dem2() as { terrain?: unknown }).terrain, { exaggeration: 1.5, hillshade: false, pitch: 45 });

    const off = await run(setTerrain, handles, { layer: 'dem2', off: true });
    assert.equal(off.terrain, 'off');
    assert.deepEqual(dem2(), { type: 'grey', band: 1, min: null, max: null });
  });
});
