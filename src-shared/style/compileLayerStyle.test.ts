import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { LayerSpecification, SourceSpecification } from 'maplibre-gl';
import type { Layer } from '../domain/layer.js';
import { testLayer } from '../domain/testing/testLayer.js';
import { compileLabelPoints, compileLayerStyle, geometryKindOf, type CompiledLayerStyle } from './compileLayerStyle.js';
import { styleHash } from './compileShared.js';
import { tileFields } from './compileLabels.js';
import { defaultRasterStyle, defaultVectorStyle } from './styleModel.js';
import { TILED_ABOVE_FEATURES, VECTOR_TILE_LAYER, VECTOR_TILE_MAX_ZOOM } from './vectorTiles.js';

const urls = { data: (path: string) => `http://127.0.0.1:9/${path}?token=t` };

function vectorLayer(geometryType: string | null, over: Partial<Layer> = {}): Layer {
  const style = { type: 'simple', fill: '#336699', stroke: '#111111', strokeWidth: 2, pointRadius: 6 } as const;
  return testLayer({ name: 'rivers', source: '/data/rivers.gpkg', style, info: { geometryType }, ...over });
}

function rasterLayer(over: Partial<Layer> = {}): Layer {
  const base = vectorLayer(null);
  return {
    ...base,
    id: 'R7',
    kind: 'raster',
    style: defaultRasterStyle(),
    info: { ...base.info, kind: 'raster', driver: 'GTiff', geometryType: null, extent4326: [-10, -90, 200, 40] },
    ...over,
  };
}

function paint(compiled: CompiledLayerStyle, id: string): Record<string, unknown> {
  const found = compiled.layers.find((l) => l.id === id);
  assert.ok(found, `layer ${id} exists`);
  return (found as { paint?: Record<string, unknown> }).paint ?? {};
}

/** Validate with the style spec's own validator, when the package is installed. */
async function assertValidStyle(compiled: CompiledLayerStyle): Promise<void> {
  type Validator = (style: unknown) => { message: string }[];
  let validate: Validator;
  try {
    const spec = await import('@maplibre/maplibre-gl-style-spec');
    validate = spec.validateStyleMin as unknown as Validator;
  } catch {
    return; // not installed: the shape checks still run
  }
  const style = { version: 8, sources: { [compiled.sourceId]: compiled.source }, layers: compiled.layers };
  const errors = validate(style);
  assert.deepEqual(
    errors.map((e) => e.message),
    [],
  );
}

function ids(compiled: CompiledLayerStyle): string[] {
  return compiled.layers.map((l: LayerSpecification) => l.id);
}

describe('compileLayerStyle', () => {
  it('polygons: a fill and an outline over one GeoJSON source', async () => {
    const compiled = compileLayerStyle(vectorLayer('MultiPolygon', { opacity: 0.5 }), urls);
    assert.equal(compiled.sourceId, 'src-L1');
    assert.deepEqual(compiled.source, {
      type: 'geojson',
      data: 'http://127.0.0.1:9/data/layers/L1.geojson?token=t',
    } satisfies SourceSpecification);
    assert.deepEqual(ids(compiled), ['layer-L1-fill', 'layer-L1-outline']);
    assert.equal(paint(compiled, 'layer-L1-fill')['fill-color'], '#336699');
    assert.equal(paint(compiled, 'layer-L1-fill')['fill-opacity'], 0.35);
    assert.equal(paint(compiled, 'layer-L1-outline')['line-color'], '#111111');
    assert.equal(paint(compiled, 'layer-L1-outline')['line-opacity'], 0.5);
    for (const l of compiled.layers) {
      assert.equal(l.type === 'fill' || l.type === 'line' ? l.source : null, 'src-L1');
      assert.equal('filter' in l, false, 'a single-kind layer needs no filter');
    }
    await assertValidStyle(compiled);
  });

  it('lines: one line layer in the feature colour', async () => {
    const compiled = compileLayerStyle(vectorLayer('LineString', { opacity: 0.8 }), urls);
    assert.deepEqual(ids(compiled), ['layer-L1-line']);
    assert.equal(paint(compiled, 'layer-L1-line')['line-color'], '#336699');
    assert.equal(paint(compiled, 'layer-L1-line')['line-opacity'], 0.8);
    await assertValidStyle(compiled);
  });

  it('points: one circle layer with radius and opacity', async () => {
    const compiled = compileLayerStyle(vectorLayer('Point', { opacity: 0.25 }), urls);
    assert.deepEqual(ids(compiled), ['layer-L1-circle']);
    const p = paint(compiled, 'layer-L1-circle');
    assert.equal(p['circle-radius'], 6);
    assert.equal(p['circle-opacity'], 0.25);
    assert.equal(p['circle-stroke-opacity'], 0.25);
    await assertValidStyle(compiled);
  });

  it('unknown or mixed geometry: all kinds, each filtered on geometry-type', async () => {
    for (const type of [null, 'Unknown', 'Mixed', 'GeometryCollection']) {
      const compiled = compileLayerStyle(vectorLayer(type), urls);
      assert.deepEqual(ids(compiled), ['layer-L1-fill', 'layer-L1-outline', 'layer-L1-line', 'layer-L1-circle']);
      for (const l of compiled.layers) {
        const filter = (l as { filter?: unknown }).filter;
        assert.ok(Array.isArray(filter), `${l.id} is filtered`);
        assert.deepEqual((filter as unknown[])[1], ['geometry-type']);
      }
      await assertValidStyle(compiled);
    }
  });

  it('hidden layers compile with layout visibility none', () => {
    const compiled = compileLayerStyle(vectorLayer(null, { visible: false }), urls);
    for (const l of compiled.layers) assert.equal(l.layout?.visibility, 'none');
    const shown = compileLayerStyle(vectorLayer(null), urls);
    for (const l of shown.layers) assert.equal(l.layout?.visibility, 'visible');
  });

  it('rasters: one raster layer over 256 px tiles, bounds clamped to Web Mercator', async () => {
    const compiled = compileLayerStyle(rasterLayer({ opacity: 0.6, visible: false }), urls);
    assert.equal(compiled.sourceId, 'src-R7');
    assert.deepEqual(compiled.source, {
      type: 'raster',
      tiles: [`http://127.0.0.1:9/tiles/R7/s-${styleHash(defaultRasterStyle())}/{z}/{x}/{y}.png?token=t`],
      tileSize: 256,
      bounds: [-10, -85.051129, 180, 40],
    });
    assert.deepEqual(ids(compiled), ['layer-R7-raster']);
    assert.equal(paint(compiled, 'layer-R7-raster')['raster-opacity'], 0.6);
    assert.equal(compiled.layers[0]!.layout?.visibility, 'none');
    await assertValidStyle(compiled);
  });

  it('a raster restyled gets new tile URLs (no stale tiles); the same style the same URLs', () => {
    const grey = compileLayerStyle(rasterLayer(), urls).source as { tiles: string[] };
    const again = compileLayerStyle(rasterLayer(), urls).source as { tiles: string[] };
    const hill = compileLayerStyle(rasterLayer({ style: { type: 'hillshade', band: 1, azimuth: 315, altitude: 45, zFactor: 1 } }), urls)
      .source as { tiles: string[] };
    const hill2 = compileLayerStyle(rasterLayer({ style: { type: 'hillshade', band: 1, azimuth: 300, altitude: 45, zFactor: 1 } }), urls)
      .source as { tiles: string[] };
    assert.deepEqual(grey.tiles, again.tiles);
    assert.notDeepEqual(grey.tiles, hill.tiles);
    assert.notDeepEqual(hill.tiles, hill2.tiles);
    for (const url of [...grey.tiles, ...hill.tiles]) assert.match(url, /\/tiles\/R7\/s-[0-9a-z]+\/\{z\}\/\{x\}\/\{y\}\.png\?token=t$/);
  });

  it('rasters without a usable extent get no bounds', () => {
    const base = rasterLayer();
    const compiled = compileLayerStyle({ ...base, info: { ...base.info, extent4326: null } }, urls);
    assert.equal('bounds' in compiled.source, false);
  });

  it('is deterministic, so the map sync can diff by value', () => {
    const layer = vectorLayer('Polygon', { style: defaultVectorStyle(3) });
    assert.deepEqual(compileLayerStyle(layer, urls), compileLayerStyle(layer, urls));
  });
});

describe('geometryKindOf', () => {
  it('maps worker geometry names to what the map draws', () => {
    assert.equal(geometryKindOf('CurvePolygon'), 'polygon');
    assert.equal(geometryKindOf('MultiLineString'), 'line');
    assert.equal(geometryKindOf('MultiPoint'), 'point');
    assert.equal(geometryKindOf('None'), 'mixed');
  });
});

describe('compileLayerStyle with mismatched kind and style', () => {
  it('follows the layer kind, not the style type', () => {
    const raster = compileLayerStyle(rasterLayer({ style: defaultVectorStyle(0) }), urls);
    assert.equal(raster.source.type, 'raster');
    const vector = compileLayerStyle(vectorLayer('Point', { style: defaultRasterStyle() }), urls);
    assert.equal(vector.source.type, 'geojson');
    assert.deepEqual(ids(vector), ['layer-L1-circle']);
  });
});

describe('large vector layers compile to vector tiles', () => {
  const big = (featureCount: number | null, style?: Layer['style']) => {
    const l = vectorLayer('Polygon', style ? { style } : {});
    return { ...l, info: { ...l.info, featureCount } };
  };

  it('past the threshold (or of unknown count): a vector tile source, every layer naming its source layer', () => {
    for (const count of [TILED_ABOVE_FEATURES + 1, null]) {
      const compiled = compileLayerStyle(big(count), urls);
      const source = compiled.source as { type: string; tiles: string[]; maxzoom: number };
      assert.equal(source.type, 'vector');
      assert.match(source.tiles[0]!, /^http:\/\/127\.0\.0\.1:9\/tiles\/L1\/v-[0-9a-z]+\/\{z\}\/\{x\}\/\{y\}\.pbf\?token=t$/);
      assert.equal(source.maxzoom, VECTOR_TILE_MAX_ZOOM);
      assert.ok(
        compiled.layers.length > 0 &&
          compiled.layers.every((l) => (l as { 'source-layer'?: string })['source-layer'] === VECTOR_TILE_LAYER),
      );
    }
  });

  it('at or under the threshold: one GeoJSON document as before', () => {
    assert.equal(compileLayerStyle(big(TILED_ABOVE_FEATURES), urls).source.type, 'geojson');
  });

  it('the tile path changes when the style needs other fields, not when only colours change', () => {
    const graduated = (field: string, colour: string): Layer['style'] =>
      ({
        type: 'graduated',
        field,
        method: 'quantile',
        breaks: [0, 1, 2],
        colours: [colour, '#000000'],
        ramp: 'viridis',
        nullColour: null,
        stroke: '#111111',
        strokeWidth: 1,
        pointRadius: 4,
      }) as Layer['style'];
    const path = (s: Layer['style']) => (compileLayerStyle(big(1e6, s), urls).source as { tiles: string[] }).tiles[0];
    assert.equal(path(graduated('pop', '#ffffff')), path(graduated('pop', '#ff0000')));
    assert.notEqual(path(graduated('pop', '#ffffff')), path(graduated('area', '#ffffff')));
  });
});

describe('the fields each style needs travel in the tiles', () => {
  const sym = { stroke: '#111111', strokeWidth: 1, pointRadius: 4 };
  it('rules, labels, categories and heatmap weights; a simple style needs none', () => {
    assert.deepEqual(tileFields({ type: 'simple', fill: '#123456', ...sym }), []);
    assert.deepEqual(
      tileFields({
        type: 'rules',
        rules: [{ filter: "pop > 1000 AND kind = 'city'", label: 'big', colour: '#ff0000' }],
        elseColour: null,
        ...sym,
        labels: {
          text: '{NAME} ({ISO})',
          size: 12,
          colour: '#000000',
          haloColour: '#ffffff',
          haloWidth: 1,
          placement: 'point',
          minZoom: 0,
        },
      }),
      ['ISO', 'NAME', 'kind', 'pop'],
    );
    assert.deepEqual(
      tileFields({
        type: 'categorized',
        field: 'cat',
        categories: [{ value: 'a', colour: '#ff0000', label: 'a' }],
        otherColour: null,
        ...sym,
      }),
      ['cat'],
    );
    assert.deepEqual(tileFields({ type: 'heatmap', radius: 10, intensity: 1, weightField: 'w', weightMax: 5, ramp: 'viridis' }), ['w']);
  });
});

describe('an edited layer names its data revision in its data URLs', () => {
  const editing = (revision: number) => ({ originalSource: '/data/rivers.shp', originalSublayer: null, revision });
  const labelled = {
    type: 'simple',
    fill: '#336699',
    stroke: '#111111',
    strokeWidth: 1,
    pointRadius: 4,
    labels: { text: '{NAME}', size: 12, colour: '#000000', haloColour: '#ffffff', haloWidth: 1, placement: 'point', minZoom: 0 },
  } as Layer['style'];

  it('GeoJSON: data/layers/ID.rN.geojson, a new URL for every revision; unedited layers keep the plain path', () => {
    const url = (l: Layer) => (compileLayerStyle(l, urls).source as { data: string }).data;
    assert.equal(url(vectorLayer('Polygon')), 'http://127.0.0.1:9/data/layers/L1.geojson?token=t');
    assert.equal(url(vectorLayer('Polygon', { editing: editing(0) })), 'http://127.0.0.1:9/data/layers/L1.r0.geojson?token=t');
    assert.equal(url(vectorLayer('Polygon', { editing: editing(3) })), 'http://127.0.0.1:9/data/layers/L1.r3.geojson?token=t');
  });

  it('vector tiles: the revision follows the fields hash in the one cache-busting segment', () => {
    const tiled = (over: Partial<Layer>) => {
      const l = vectorLayer('Polygon', over);
      return { ...l, info: { ...l.info, featureCount: TILED_ABOVE_FEATURES + 1 } };
    };
    const tiles = (l: Layer) => (compileLayerStyle(l, urls).source as { tiles: string[] }).tiles[0]!;
    const hash = styleHash(tileFields(tiled({}).style));
    assert.equal(tiles(tiled({})), `http://127.0.0.1:9/tiles/L1/v-${hash}/{z}/{x}/{y}.pbf?token=t`);
    assert.equal(tiles(tiled({ editing: editing(7) })), `http://127.0.0.1:9/tiles/L1/v-${hash}r7/{z}/{x}/{y}.pbf?token=t`);
    assert.match(tiles(tiled({ editing: editing(7) })), /\/v-[0-9a-z]+\//);
  });

  it('polygon label points: labels-HASHrN.geojson', () => {
    const path = (l: Layer) => (compileLabelPoints(l, urls)!.source as { data: string }).data;
    const plain = path(vectorLayer('Polygon', { style: labelled }));
    const edited = path(vectorLayer('Polygon', { style: labelled, editing: editing(2) }));
    assert.match(plain, /\/data\/layers\/L1\/labels-[0-9a-z]+\.geojson\?/);
    assert.equal(edited, plain.replace('.geojson?', 'r2.geojson?'));
  });
});
