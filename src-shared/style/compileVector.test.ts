import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { LayerSpecification } from 'maplibre-gl';
import type { Layer, LayerInfo } from '../domain/layer.js';
import { testLayer } from '../domain/testing/testLayer.js';
import { BIVARIATE_PALETTE } from './colourRamps.js';
import { compileLayerStyle, type CompiledLayerStyle } from './compileLayerStyle.js';
import { heatmapRadius } from './compileVector.js';
import { compileLabelPoints, labelPointsPath, labelTextExpression, styleFields } from './compileLabels.js';
import { LABEL_FONTSTACK } from './glyphs.js';
import { LayerStyle, type LabelStyle } from './styleModel.js';
import { loadStyleSpec, type StyleSpecKit } from './testing/styleSpecKit.js';

/**
 * Every vector style kind × geometry compiles to layers MapLibre's validator accepts, and
 * MapLibre's own expression engine gives each feature the colour the style model says.
 */
const urls = { data: (path: string) => `http://127.0.0.1:9/${path}?token=t` };
const GEOMETRIES = ['MultiPolygon', 'LineString', 'Point', null] as const;

function layerWith(
  style: unknown,
  geometryType: string | null,
  { info, ...over }: Partial<Omit<Layer, 'info'>> & { info?: Partial<LayerInfo> } = {},
): Layer {
  return testLayer({ name: 'countries', source: '/data/x.gpkg', style: LayerStyle.parse(style), info: { geometryType, ...info }, ...over });
}

const symbol = { stroke: '#222222', strokeWidth: 1, pointRadius: 5 };
const labels: LabelStyle = {
  text: '{NAME} ({ISO})',
  size: 12,
  colour: '#111111',
  haloColour: '#ffffff',
  haloWidth: 1.5,
  placement: 'point',
  minZoom: 2,
};

const STYLES = {
  simple: { type: 'simple', fill: '#336699', ...symbol, labels },
  categorized: {
    type: 'categorized',
    field: 'CONTINENT',
    categories: [
      { value: 'Africa', colour: '#ff0000', label: 'Africa' },
      { value: 'Asia', colour: '#00ff00', label: 'Asia' },
      { value: null, colour: '#0000ff', label: '(no value)' },
    ],
    otherColour: '#bbbbbb',
    ...symbol,
  },
  categorizedNumbers: {
    type: 'categorized',
    field: 'RANK',
    categories: [
      { value: 1, colour: '#ff0000', label: '1' },
      { value: 2.5, colour: '#00ff00', label: '2.5' },
    ],
    otherColour: null,
    ...symbol,
  },
  graduated: {
    type: 'graduated',
    field: 'POP',
    method: 'quantile',
    breaks: [0, 10, 100, 1000],
    colours: ['#ffffcc', '#fd8d3c', '#800026'],
    ramp: 'ylorrd',
    nullColour: null,
    sizes: [2, 6, 12],
    ...symbol,
    labels,
  },
  rules: {
    type: 'rules',
    rules: [
      { filter: "CONTINENT = 'Africa' and POP > 100", label: 'big African', colour: '#aa0000', size: 9 },
      { filter: 'POP > 100', label: 'big', colour: '#0000aa' },
    ],
    elseColour: null,
    ...symbol,
  },
  bivariate: {
    type: 'bivariate',
    fieldX: 'GDP',
    fieldY: 'LIFE',
    breaksX: [0, 10, 20, 30],
    breaksY: [40, 60, 70, 90],
    palette: [...BIVARIATE_PALETTE],
    nullColour: '#ffffff',
    ...symbol,
  },
} as const;

function colourProperty(l: LayerSpecification): { type: string; prop: string } | null {
  if (l.type === 'fill') return { type: 'fill', prop: 'fill-color' };
  if (l.type === 'line' && l.id.endsWith('-line')) return { type: 'line', prop: 'line-color' };
  if (l.type === 'circle') return { type: 'circle', prop: 'circle-color' };
  return null;
}

describe('vector style compilers', () => {
  let spec: StyleSpecKit | null = null;
  before(async () => {
    spec = await loadStyleSpec();
  });

  function validate(compiled: CompiledLayerStyle): void {
    if (!spec) return;
    const style = {
      version: 8,
      glyphs: 'http://127.0.0.1:9/assets/glyphs/{fontstack}/{range}.pbf',
      sources: { [compiled.sourceId]: compiled.source },
      layers: compiled.layers,
    };
    assert.deepEqual(spec.validate(style), []);
  }

  /** The colour each geometry's main layer gives a feature, or null when the layer filters it out. */
  function colourFor(compiled: CompiledLayerStyle, props: Record<string, unknown>): string[] {
    const out: string[] = [];
    for (const l of compiled.layers) {
      const cp = colourProperty(l);
      if (!cp || !spec) continue;
      const geometry = l.type === 'fill' ? 'Polygon' : l.type === 'line' ? 'LineString' : 'Point';
      const filter = (l as { filter?: unknown }).filter;
      if (filter && !spec.passes(filter, props, geometry)) {
        out.push('hidden');
        continue;
      }
      out.push(String(spec.evaluate(cp.type, 'paint', cp.prop, (l as { paint: Record<string, unknown> }).paint[cp.prop], props)));
    }
    return [...new Set(out)];
  }

  for (const [name, style] of Object.entries(STYLES)) {
    for (const geometry of GEOMETRIES) {
      it(`${name} on ${geometry ?? 'mixed'} geometry: valid MapLibre layers`, () => {
        const compiled = compileLayerStyle(layerWith(style, geometry), urls);
        assert.ok(compiled.layers.length >= 1);
        validate(compiled);
        const kinds = compiled.layers.map((l) => l.type);
        if (geometry === 'MultiPolygon')
          assert.deepEqual(
            kinds.filter((k) => k !== 'symbol'),
            ['fill', 'line'],
          );
        if (geometry === 'LineString')
          assert.deepEqual(
            kinds.filter((k) => k !== 'symbol'),
            ['line'],
          );
        if (geometry === 'Point')
          assert.deepEqual(
            kinds.filter((k) => k !== 'symbol'),
            ['circle'],
          );
        const overlay = compileLabelPoints(layerWith(style, geometry), urls);
        if ('labels' in style && geometry === 'MultiPolygon') {
          // Polygons: one label point per feature, from its own source, not one per polygon part.
          assert.ok(overlay);
          assert.equal(
            compiled.layers.some((l) => l.type === 'symbol'),
            false,
          );
          assert.deepEqual(overlay.source, {
            type: 'geojson',
            data: urls.data(labelPointsPath('L1', styleFields(LayerStyle.parse(style) as never))),
          });
          validate(overlay);
        } else if ('labels' in style) {
          assert.equal(overlay, null);
        }
        const label = overlay ? overlay.layers[0]! : compiled.layers.at(-1)!;
        if ('labels' in style) {
          assert.equal(label.type, 'symbol', 'labels are drawn last, on top');
          assert.equal(label.id, 'layer-L1-label');
          assert.deepEqual((label.layout as Record<string, unknown>)['text-font'], [LABEL_FONTSTACK]);
          assert.equal(label.minzoom, 2);
        }
      });
    }
  }

  it('categorized: each value its colour, null its own, others the other colour', (t) => {
    if (!spec) return t.skip('style-spec absent');
    const c = compileLayerStyle(layerWith(STYLES.categorized, 'Point'), urls);
    assert.deepEqual(colourFor(c, { CONTINENT: 'Africa' }), ['#ff0000']);
    assert.deepEqual(colourFor(c, { CONTINENT: 'Asia' }), ['#00ff00']);
    assert.deepEqual(colourFor(c, { CONTINENT: null }), ['#0000ff']);
    assert.deepEqual(colourFor(c, {}), ['#0000ff']);
    assert.deepEqual(colourFor(c, { CONTINENT: 'Europe' }), ['#bbbbbb']);
  });

  it('categorized numbers (decimals need equality tests) and other hidden', (t) => {
    if (!spec) return t.skip('style-spec absent');
    const c = compileLayerStyle(layerWith(STYLES.categorizedNumbers, 'MultiPolygon'), urls);
    assert.deepEqual(colourFor(c, { RANK: 1 }), ['#ff0000']);
    assert.deepEqual(colourFor(c, { RANK: 2.5 }), ['#00ff00']);
    assert.deepEqual(colourFor(c, { RANK: 3 }), ['hidden']);
  });

  it('graduated: lower edge inclusive like step, the last class takes the max, no value hidden', (t) => {
    if (!spec) return t.skip('style-spec absent');
    const c = compileLayerStyle(layerWith(STYLES.graduated, 'Point'), urls);
    assert.deepEqual(colourFor(c, { POP: 0 }), ['#ffffcc']);
    assert.deepEqual(colourFor(c, { POP: 9.9 }), ['#ffffcc']);
    assert.deepEqual(colourFor(c, { POP: 10 }), ['#fd8d3c']);
    assert.deepEqual(colourFor(c, { POP: 1000 }), ['#800026']);
    assert.deepEqual(colourFor(c, { POP: null }), ['hidden']);
    assert.deepEqual(colourFor(c, { POP: 'n/a' }), ['hidden']);
    const circle = c.layers.find((l) => l.type === 'circle')!;
    assert.equal(
      spec.evaluate('circle', 'paint', 'circle-radius', (circle.paint as Record<string, unknown>)['circle-radius'], { POP: 500 }),
      12,
    );
    // With a null colour, features without a number are drawn in it instead.
    const shown = compileLayerStyle(layerWith({ ...STYLES.graduated, nullColour: '#cccccc' }, 'Point'), urls);
    assert.deepEqual(colourFor(shown, { POP: null }), ['#cccccc']);
  });

  it('rules: first match wins, unmatched hidden without an else colour, per-rule size', (t) => {
    if (!spec) return t.skip('style-spec absent');
    const c = compileLayerStyle(layerWith(STYLES.rules, 'Point'), urls);
    assert.deepEqual(colourFor(c, { CONTINENT: 'Africa', POP: 500 }), ['#aa0000']);
    assert.deepEqual(colourFor(c, { CONTINENT: 'Asia', POP: 500 }), ['#0000aa']);
    assert.deepEqual(colourFor(c, { CONTINENT: 'Asia', POP: 5 }), ['hidden']);
    const circle = c.layers.find((l) => l.type === 'circle')!;
    const radius = (circle.paint as Record<string, unknown>)['circle-radius'];
    assert.equal(spec.evaluate('circle', 'paint', 'circle-radius', radius, { CONTINENT: 'Africa', POP: 500 }), 9);
    assert.equal(spec.evaluate('circle', 'paint', 'circle-radius', radius, { CONTINENT: 'Asia', POP: 500 }), 5);
    const withElse = compileLayerStyle(layerWith({ ...STYLES.rules, elseColour: '#00ff00' }, 'Point'), urls);
    assert.deepEqual(colourFor(withElse, { CONTINENT: 'Asia', POP: 5 }), ['#00ff00']);
  });

  it('bivariate: x and y classes pick the palette cell x + 3y', (t) => {
    if (!spec) return t.skip('style-spec absent');
    const c = compileLayerStyle(layerWith(STYLES.bivariate, 'MultiPolygon'), urls);
    const cell = (x: number, y: number) => BIVARIATE_PALETTE[x + 3 * y];
    assert.deepEqual(colourFor(c, { GDP: 5, LIFE: 50 }), [cell(0, 0)]);
    assert.deepEqual(colourFor(c, { GDP: 25, LIFE: 50 }), [cell(2, 0)]);
    assert.deepEqual(colourFor(c, { GDP: 5, LIFE: 80 }), [cell(0, 2)]);
    assert.deepEqual(colourFor(c, { GDP: 15, LIFE: 65 }), [cell(1, 1)]);
    assert.deepEqual(colourFor(c, { GDP: 30, LIFE: 90 }), [cell(2, 2)]);
    assert.deepEqual(colourFor(c, { GDP: null, LIFE: 90 }), ['#ffffff']);
  });

  it('labels: a template becomes concatenated field values', (t) => {
    if (!spec) return t.skip('style-spec absent');
    const text = labelTextExpression('{NAME} ({ISO})');
    const value = spec.evaluate('symbol', 'layout', 'text-field', text, { NAME: 'Chad', ISO: 'TCD' });
    assert.equal(String(value), 'Chad (TCD)');
    assert.equal(String(spec.evaluate('symbol', 'layout', 'text-field', labelTextExpression('{POP}'), { POP: 1234 })), '1234');
    assert.deepEqual(labelTextExpression('{NAME}'), ['to-string', ['get', 'NAME']]);
  });

  it('label points carry exactly the fields the style reads, and move when they change', () => {
    const style = LayerStyle.parse(STYLES.graduated);
    assert.deepEqual(styleFields(style as never), ['ISO', 'NAME', 'POP']);
    const rules = LayerStyle.parse({ ...STYLES.rules, labels: { ...labels, text: '{NAME}' } });
    assert.deepEqual(styleFields(rules as never), ['CONTINENT', 'NAME', 'POP']);
    assert.notEqual(labelPointsPath('L1', ['NAME']), labelPointsPath('L1', ['NAME', 'POP']));
    assert.match(labelPointsPath('L1', ['NAME']), /^data\/layers\/L1\/labels-[0-9a-z]+\.geojson$/);
    // The graduated filter (numbers only) applies to the labels too: no label on a hidden feature.
    const overlay = compileLabelPoints(layerWith(STYLES.graduated, 'MultiPolygon'), urls)!;
    assert.ok((overlay.layers[0] as { filter?: unknown }).filter);
    // Hidden layers hide their labels; polygons labelled along the outline use the polygons.
    assert.equal(
      compileLabelPoints(layerWith(STYLES.graduated, 'MultiPolygon', { visible: false }), urls)!.layers[0]!.layout?.visibility,
      'none',
    );
    const alongOutline = layerWith({ ...STYLES.simple, labels: { ...labels, placement: 'line' } }, 'MultiPolygon');
    assert.equal(compileLabelPoints(alongOutline, urls), null);
    assert.equal(compileLayerStyle(alongOutline, urls).layers.at(-1)!.type, 'symbol');
  });

  it('line labels follow the line', () => {
    const c = compileLayerStyle(layerWith({ ...STYLES.simple, labels: { ...labels, placement: 'line', minZoom: 0 } }, 'LineString'), urls);
    const label = c.layers.at(-1)!;
    assert.equal((label.layout as Record<string, unknown>)['symbol-placement'], 'line');
    assert.equal('minzoom' in label, false);
    validate(c);
  });

  it('heatmap: one heatmap layer, weight scaled by the field maximum, transparent at zero density', (t) => {
    const style = { type: 'heatmap', radius: 25, intensity: 1.5, weightField: 'nbikes', weightMax: 50, ramp: 'ylorrd' };
    const c = compileLayerStyle(layerWith(style, 'Point', { opacity: 0.5 }), urls);
    assert.deepEqual(
      c.layers.map((l) => l.type),
      ['heatmap'],
    );
    const paint = c.layers[0]!.paint as Record<string, unknown>;
    assert.equal(paint['heatmap-radius'], 25);
    assert.equal(paint['heatmap-opacity'], 0.425);
    validate(c);
    if (!spec) return t.skip('style-spec absent');
    assert.equal(spec.evaluate('heatmap', 'paint', 'heatmap-weight', paint['heatmap-weight'], { nbikes: 25 }), 0.5);
    assert.equal(spec.evaluate('heatmap', 'paint', 'heatmap-weight', paint['heatmap-weight'], { nbikes: null }), 0);
    const unweighted = compileLayerStyle(layerWith({ ...style, weightField: null, weightMax: null }, 'Point'), urls);
    assert.equal((unweighted.layers[0]!.paint as Record<string, unknown>)['heatmap-weight'], 1);
    validate(unweighted);
  });

  it('heatmap radius in metres: a fixed ground distance, the pixels doubling with each zoom (issue 17)', (t) => {
    const style = { type: 'heatmap', radius: 500, radiusUnits: 'meters', intensity: 1, weightField: null, weightMax: null, ramp: 'ylorrd' };
    // A layer around 60° N: a pixel there covers half the ground it covers at the equator.
    const c = compileLayerStyle(layerWith(style, 'Point', { info: { extent4326: [10, 59, 11, 61] } }), urls);
    const radius = (c.layers[0]!.paint as Record<string, unknown>)['heatmap-radius'];
    assert.deepEqual((radius as unknown[]).slice(0, 3), ['interpolate', ['exponential', 2], ['zoom']]);
    validate(c);
    // MapLibre's world is 512 · 2^z pixels across: metres per pixel = 40 075 016.686 m · cos φ / (512 · 2^z).
    const metresPerPixel = (zoom: number, lat: number) => (40_075_016.686 * Math.cos((lat * Math.PI) / 180)) / (512 * 2 ** zoom);
    const near = (a: number, b: number, what = '') => assert.ok(Math.abs(a - b) < 1e-6 * Math.max(1, Math.abs(b)), `${what} ${a} vs ${b}`);
    // The compiled layer uses the middle of the extent: the same expression as at 60°.
    assert.deepEqual(radius, heatmapRadius({ radius: 500, radiusUnits: 'meters' }, 60));
    if (!spec) return t.skip('style-spec absent');
    const pixelsAt = (zoom: number) => spec!.evaluate('heatmap', 'paint', 'heatmap-radius', radius, {}, zoom) as number;
    for (const zoom of [3, 10, 10.5, 16]) near(pixelsAt(zoom) * metresPerPixel(zoom, 60), 500);
    near(pixelsAt(11) / pixelsAt(10), 2);
    near(pixelsAt(14), 500 / metresPerPixel(14, 60));
    near(pixelsAt(14), (2 * 500) / metresPerPixel(14, 0), 'at 60° twice the pixels of the equator');
    // Pixels stay what they were: a number, the same at every zoom; older styles without units too.
    assert.equal(heatmapRadius({ radius: 25, radiusUnits: 'pixels' }, 60), 25);
    assert.equal(heatmapRadius({ radius: 25 }, 60), 25);
    // No extent: the equator.
    const noExtent = compileLayerStyle(layerWith(style, 'Point', { info: { extent4326: null } }), urls);
    assert.deepEqual((noExtent.layers[0]!.paint as Record<string, unknown>)['heatmap-radius'], heatmapRadius(style as never, 0));
    assert.throws(() => LayerStyle.parse({ ...style, radiusUnits: 'pixels' }), /radius in pixels is 1 to 200/);
  });

  it('opacity: the style’s fill opacity times the layer’s', () => {
    const c = compileLayerStyle(layerWith({ ...STYLES.simple, opacity: 0.4 }, 'MultiPolygon', { opacity: 0.5 }), urls);
    assert.equal((c.layers[0]!.paint as Record<string, unknown>)['fill-opacity'], 0.2);
    const points = compileLayerStyle(layerWith({ ...STYLES.simple, opacity: 0.4 }, 'Point', { opacity: 0.5 }), urls);
    assert.equal((points.layers[0]!.paint as Record<string, unknown>)['circle-opacity'], 0.2);
  });

  it('the style model refuses broken styles', () => {
    assert.throws(() => LayerStyle.parse({ ...STYLES.graduated, breaks: [0, 100, 10, 1000] }), /ascending/);
    assert.throws(() => LayerStyle.parse({ ...STYLES.graduated, colours: ['#ffffff'] }), /3 classes need as many colours/);
    assert.throws(
      () => LayerStyle.parse({ ...STYLES.rules, rules: [{ filter: 'POP >', label: 'x', colour: '#000000' }] }),
      /filter: expected a number/,
    );
    assert.throws(() => LayerStyle.parse({ ...STYLES.simple, labels: { ...labels, text: 'no field' } }), /names no field/);
    assert.throws(() => LayerStyle.parse({ ...STYLES.bivariate, palette: ['#000000'] }));
    // What older versions saved still reads.
    assert.deepEqual(
      LayerStyle.parse({ type: 'simple', fill: '#e4572e', stroke: '#222222', strokeWidth: 1, pointRadius: 5 }).type,
      'simple',
    );
    assert.deepEqual(LayerStyle.parse({ type: 'grey', band: 1, min: null, max: null }).type, 'grey');
  });
});
