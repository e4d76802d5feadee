import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { BASEMAP_FILES, BASEMAP_LAYER_IDS, BASEMAP_TOP_LAYER_ID, buildBasemapStyle, isBasemapLayerId } from './basemapStyle.js';
import { GLYPH_RANGE_STARTS, GLYPHS_ASSET_PATH, LABEL_FONTSTACK, glyphRangeName } from './glyphs.js';

const ASSETS_DIR = fileURLToPath(new URL('../../assets/', import.meta.url));
const PREFIX = 'asset-test://';
const assetUrl = (file: string): string => `${PREFIX}${file}`;

interface ValidationError {
  message: string;
}
interface StyleSpecModule {
  validateStyleMin(style: unknown): ValidationError[];
}

/**
 * The validator ships with maplibre-gl as a dependency. The specifier sits in a variable so
 * typechecking does not depend on it, and the test skips rather than fails where it is absent.
 */
async function loadStyleSpec(): Promise<StyleSpecModule | null> {
  const specifier = '@maplibre/maplibre-gl-style-spec';
  try {
    const mod = (await import(specifier)) as Partial<StyleSpecModule>;
    return typeof mod.validateStyleMin === 'function' ? (mod as StyleSpecModule) : null;
  } catch {
    return null;
  }
}

/** Asset path behind a source's data URL, or throws: every source must be a shipped file. */
function assetPathOf(data: unknown): string {
  assert.equal(typeof data, 'string', 'geojson source data should be a URL, not inline data');
  const url = data as string;
  assert.ok(url.startsWith(PREFIX), `source URL ${url} was not built with assetUrl`);
  return url.slice(PREFIX.length);
}

test('basemap style passes the MapLibre style-spec validator', async (t) => {
  const spec = await loadStyleSpec();
  if (!spec) {
    t.skip('@maplibre/maplibre-gl-style-spec is not installed');
    return;
  }
  const errors = spec.validateStyleMin(buildBasemapStyle(assetUrl));
  assert.deepEqual(
    errors.map((e) => e.message),
    [],
  );
});

test('basemap style is offline-safe: no sprite, no symbol layers, glyphs from shipped assets', () => {
  const style = buildBasemapStyle(assetUrl);
  assert.equal(style.version, 8);
  assert.equal(style.sprite, undefined);
  for (const layer of style.layers) assert.notEqual(layer.type, 'symbol', `${layer.id} would draw basemap text`);
  // Glyphs are an asset URL with MapLibre's tokens; every shipped range exists for the label font.
  assert.equal(style.glyphs, `${PREFIX}${GLYPHS_ASSET_PATH}`);
  for (const start of GLYPH_RANGE_STARTS) {
    const rel = GLYPHS_ASSET_PATH.replace('{fontstack}', LABEL_FONTSTACK).replace('{range}', glyphRangeName(start));
    const path = `${ASSETS_DIR}${rel}`;
    assert.ok(existsSync(path) && statSync(path).size > 1000, `${rel} is missing (run npx tsx scripts/build-glyphs.ts)`);
  }
});

test('basemap layers and sources are prefixed and in the documented order', () => {
  const style = buildBasemapStyle(assetUrl);
  assert.deepEqual(
    style.layers.map((l) => l.id),
    [...BASEMAP_LAYER_IDS],
  );
  assert.equal(style.layers.at(-1)?.id, BASEMAP_TOP_LAYER_ID);
  for (const id of [...style.layers.map((l) => l.id), ...Object.keys(style.sources)]) {
    assert.ok(isBasemapLayerId(id), `${id} lacks the basemap- prefix`);
  }
  assert.equal(isBasemapLayerId('user-layer-1'), false);
  // Lakes share the ocean's colour, so inland water reads as water.
  const paint = (id: string): Record<string, unknown> =>
    (style.layers.find((l) => l.id === id) as { paint?: Record<string, unknown> }).paint ?? {};
  assert.equal(paint('basemap-lakes')['fill-color'], paint('basemap-background')['background-color']);
});

test('every basemap source points at a GeoJSON file shipped in assets/basemap', () => {
  const requested: string[] = [];
  const style = buildBasemapStyle((file) => {
    requested.push(file);
    return assetUrl(file);
  });
  assert.deepEqual(requested.filter((f) => f !== GLYPHS_ASSET_PATH).sort(), Object.values(BASEMAP_FILES).sort());

  const expectedGeometry: Record<string, string[]> = {
    [BASEMAP_FILES.countries]: ['Polygon', 'MultiPolygon'],
    [BASEMAP_FILES.lakes]: ['Polygon', 'MultiPolygon'],
    [BASEMAP_FILES.coastline]: ['LineString', 'MultiLineString'],
  };
  for (const [id, source] of Object.entries(style.sources)) {
    assert.equal(source.type, 'geojson', `${id} should be a geojson source`);
    const rel = assetPathOf((source as { data?: unknown }).data);
    assert.ok(rel.startsWith('basemap/'), `${id} reads ${rel}, outside assets/basemap`);
    const path = `${ASSETS_DIR}${rel}`;
    assert.ok(existsSync(path), `${id}: ${path} does not exist (run npx tsx scripts/build-basemap.ts)`);
    assert.ok(statSync(path).size > 0, `${path} is empty`);

    const fc = JSON.parse(readFileSync(path, 'utf8')) as {
      type: string;
      features: { geometry: { type: string } | null }[];
    };
    assert.equal(fc.type, 'FeatureCollection', `${rel} is not a FeatureCollection`);
    assert.ok(fc.features.length > 0, `${rel} has no features`);
    const allowed = expectedGeometry[rel] ?? [];
    for (const f of fc.features) assert.ok(f.geometry && allowed.includes(f.geometry.type), `${rel}: unexpected ${f.geometry?.type}`);
  }
});
