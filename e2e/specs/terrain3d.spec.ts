import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { type SharedApp, useAppSession } from '../support/appSession.js';
import { onMap } from '../support/mapHandle.js';
import { gisFixtures } from '../support/webHost.js';

const ELEV = join(gisFixtures, 'elev.tif');
const NC = join(gisFixtures, 'nc.gpkg');
const haveFixtures = existsSync(ELEV) && existsSync(NC);
if (!haveFixtures) console.log(`# skipping 3D e2e: ${gisFixtures} is absent`);

/** What the page's MapLibre says about the terrain, the tilt and the DEM tiles it asked for. */
function terrainState(app: SharedApp['app']) {
  return onMap(app.page, (map) => {
    const t = map.getTerrain();
    const style = map.getStyle();
    const dem = Object.entries(style.sources).find(([, s]) => s.type === 'raster-dem');
    return {
      terrain: t ? { source: t.source, exaggeration: t.exaggeration ?? null } : null,
      pitch: map.getPitch(),
      demTiles: dem ? (dem[1].tiles ?? []) : [],
      hillshade: style.layers.filter((l) => l.type === 'hillshade').map((l) => l.id),
    };
  });
}

describe('3D terrain on, in Chromium: a DEM as terrain, extruded counties', { skip: !haveFixtures }, () => {
  const session = useAppSession({ homePrefix: 'mapwright-e2e-terrain-' });
  let { page, app, model } = {} as SharedApp;
  const demResponses: { url: string; status: number }[] = [];

  before(async () => {
    ({ page, app, model } = await session.openApp({
      beforeOpen: (p) =>
        p.on('response', (r) => {
          if (/\/tiles\/[\w-]+\/dem\//.test(r.url())) demResponses.push({ url: r.url(), status: r.status() });
        }),
    }));
  });

  it('"show the DEM in 3D": map.set_terrain sets MapLibre’s terrain from the worker’s DEM tiles and tilts the view', async () => {
    model.script([
      { toolCalls: [{ name: 'layers_load', arguments: { path: ELEV } }] },
      { toolCalls: [{ name: 'style_raster_pseudocolor', arguments: { layer: 'elev', ramp: 'terrain' } }] },
      { toolCalls: [{ name: 'map_set_terrain', arguments: { layer: 'elev', exaggeration: 8, pitch: 65 } }] },
      { text: 'The DEM is shown as 3D terrain.' },
    ]);
    await app.askAgent('show the DEM in 3D');
    await app.approvePending();
    await app.waitForLayer('elev');
    await app.approvePending();
    const dialog = await app.waitForApproval();
    assert.match(dialog.text, /3D terrain/);
    await app.approvePending();
    await app.waitForMessage('assistant', /3D terrain/);
    // The view eases to the tilt asked for; a jump before it ends would stop it half-way.
    await page.waitForFunction(
      () => (window as unknown as { __mapwright?: { map: { getPitch(): number } } }).__mapwright!.map.getPitch() > 64.9,
    );
    await app.setMapView({ center: [6.05, 49.75], zoom: 9.3 });
    const state = await terrainState(app);
    assert.ok(state.terrain, 'map.getTerrain() is set');
    assert.equal(state.terrain.exaggeration, 8);
    assert.match(state.terrain.source, /^src-[\w-]+-dem$/);
    assert.ok(Math.abs(state.pitch - 65) < 0.1, `the view is tilted: ${state.pitch}`);
    assert.ok(
      state.demTiles.some((t) => /\/tiles\/[\w-]+\/dem\/\{z\}\/\{x\}\/\{y\}\.png/.test(t)),
      `raster-dem tiles: ${state.demTiles}`,
    );
    assert.equal(state.hillshade.length, 1, 'the hillshade layer from the same DEM');
    await app.waitForMapIdle();
    assert.ok(
      demResponses.some((r) => r.status === 200),
      `DEM tiles served: ${JSON.stringify(demResponses.slice(0, 3))}`,
    );
    assert.ok(
      demResponses.every((r) => r.status === 200 || r.status === 304),
      JSON.stringify(demResponses),
    );
    const legend = page.locator('[data-testid="legend-layer"][data-layer-name="elev"]');
    assert.match(await legend.innerText(), /3D terrain/);
    await app.screenshot('t1-terrain-3d');
  });

  it('the terrain is saved with the project: it is back after a reload', async () => {
    await app.reload();
    await app.waitForLayer('elev');
    await app.waitForMapIdle();
    const state = await terrainState(app);
    assert.ok(state.terrain, 'terrain after reload');
    assert.equal(state.terrain.exaggeration, 8);
    assert.ok(state.pitch > 0, `tilted after reload: ${state.pitch}`);
  });

  it('the style panel’s terrain toggle turns it off as the person', async () => {
    await page.locator('[data-testid="layer-item"][data-layer-name="elev"]').getByTestId('layer-style-open').click();
    const toggle = page.getByTestId('style-panel').getByTestId('terrain-toggle');
    assert.equal(await toggle.isChecked(), true);
    // Run as the person (entries/trigger): no dialog, audited and undoable.
    await toggle.click();
    await page.waitForFunction(() => !(document.querySelector('[data-testid="terrain-toggle"]') as HTMLInputElement | null)?.checked);
    await app.waitForMapIdle();
    assert.equal((await terrainState(app)).terrain, null, 'terrain off');
    await toggle.click();
    await page.waitForFunction(() => (document.querySelector('[data-testid="terrain-toggle"]') as HTMLInputElement | null)?.checked);
    await app.waitForMapIdle();
    assert.ok((await terrainState(app)).terrain, 'terrain on again');
    await page.getByTestId('style-close').click();
  });

  it('"raise the counties by births": style.extrude draws a fill-extrusion layer, height = BIR74 × scale', async () => {
    model.script([
      { toolCalls: [{ name: 'layers_load', arguments: { path: NC } }] },
      { toolCalls: [{ name: 'style_extrude', arguments: { layer: 'nc', field: 'NAME' } }] },
      { toolCalls: [{ name: 'style_extrude', arguments: { layer: 'nc', field: 'BIR74', scale: 2, color: '#3366cc' } }] },
      { text: 'The counties are raised by births.' },
    ]);
    await app.askAgent('raise the counties by births in 1974');
    await app.approvePending();
    await app.waitForLayer('nc');
    // NAME is text: refused before any dialog, naming the numeric fields; the model retries.
    const dialog = await app.waitForApproval();
    assert.match(dialog.text, /BIR74 × 2 m/);
    const refusal = (await app.messages()).map((m) => m.text).join('\n');
    assert.match(refusal, /holds string values/);
    await app.approvePending();
    await app.waitForMessage('assistant', /raised by births/);
    await app.setMapView({ center: [-79.5, 35.5], zoom: 6.3 });
    const paint = await onMap(page, (map) => {
      const layer = map.getStyle().layers.find((l) => l.type === 'fill-extrusion');
      if (!layer) return null;
      return {
        id: layer.id,
        colour: map.getPaintProperty(layer.id, 'fill-extrusion-color'),
        height: map.getPaintProperty(layer.id, 'fill-extrusion-height'),
      };
    });
    assert.ok(paint, 'a fill-extrusion layer is on the map');
    assert.match(paint.id, /^layer-[\w-]+-extrusion$/);
    assert.equal(paint.colour, '#3366cc');
    assert.deepEqual(paint.height, ['*', ['to-number', ['get', 'BIR74'], 0], 2]);
    const legend = page.locator('[data-testid="legend-layer"][data-layer-name="nc"]');
    assert.match(await legend.innerText(), /height = BIR74 × 2 m/);
    await app.screenshot('t2-extruded-counties');
  });
});
