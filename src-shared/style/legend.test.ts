import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Layer } from '../domain/layer.js';
import { testLayer } from '../domain/testing/testLayer.js';
import { RAMPS } from './colourRamps.js';
import { legendFor, visibleLegends } from './legend.js';
import { LayerStyle } from './styleModel.js';
import { loadStyleSpec } from './testing/styleSpecKit.js';
import { vectorPaintOf } from './vectorPaint.js';
import type { BivariateStyle } from './vectorStyleModel.js';

function layer(id: string, style: unknown, over: Partial<Layer> = {}): Layer {
  const info = { crs: null, extent: null, extent4326: null, featureCount: 1 };
  return testLayer({ id, name: `layer ${id}`, source: '/x', style: LayerStyle.parse(style), info, ...over });
}

const symbol = { stroke: '#222222', strokeWidth: 1, pointRadius: 5 };

describe('legendFor', () => {
  it('graduated: one swatch per class with its range, and no-value when drawn', () => {
    const l = legendFor(
      layer('g', {
        type: 'graduated',
        field: 'POP_EST',
        method: 'quantile',
        breaks: [140, 2500.5, 1e6, 1.4e9],
        colours: ['#ffffcc', '#fd8d3c', '#800026'],
        ramp: 'ylorrd',
        nullColour: '#cccccc',
        ...symbol,
      }),
    );
    assert.deepEqual(l.entries, [
      {
        kind: 'swatches',
        title: 'POP_EST',
        symbol: 'fill',
        items: [
          { colour: '#ffffcc', stroke: '#222222', label: '140 – 2,501' },
          { colour: '#fd8d3c', stroke: '#222222', label: '2,501 – 1,000,000' },
          { colour: '#800026', stroke: '#222222', label: '1,000,000 – 1,400,000,000' },
          { colour: '#cccccc', stroke: '#222222', label: 'No value' },
        ],
      },
    ]);
  });

  it('categorized, rules and labels; points and lines get their symbol', () => {
    const cat = legendFor(
      layer(
        'c',
        {
          type: 'categorized',
          field: 'K',
          categories: [{ value: 'a', colour: '#ff0000', label: 'a' }],
          otherColour: '#bbbbbb',
          ...symbol,
          labels: { text: '{NAME}', size: 12, colour: '#000000', haloColour: '#ffffff', haloWidth: 1, placement: 'point', minZoom: 0 },
        },
        {
          info: { ...layer('x', { type: 'simple', fill: '#000000', ...symbol }).info, geometryType: 'Point' },
        },
      ),
    );
    assert.equal(cat.entries[0]!.kind === 'swatches' && cat.entries[0]!.symbol, 'point');
    assert.deepEqual(cat.entries[0]!.kind === 'swatches' && cat.entries[0]!.items.map((i) => i.label), ['a', 'Other']);
    assert.deepEqual(cat.entries[1], { kind: 'note', text: 'Labels: {NAME}', message: { key: 'labels', field: '{NAME}' } });
    const rules = legendFor(
      layer('r', { type: 'rules', rules: [{ filter: 'a > 1', label: 'big', colour: '#000000' }], elseColour: null, ...symbol }),
    );
    assert.deepEqual(rules.entries[0]!.kind === 'swatches' && rules.entries[0]!.items.map((i) => i.label), ['big']);
  });

  it('rasters: a ramp bar with the stretch values; hillshade and RGB say what they show', () => {
    const raster = (style: unknown) => legendFor(layer('r', style, { kind: 'raster' }));
    const pc = raster({ type: 'pseudocolor', band: 1, ramp: 'viridis', invert: false, min: 199.48, max: 502.66 });
    assert.deepEqual(pc.entries, [{ kind: 'ramp', title: 'band 1', colours: [...RAMPS.viridis], low: '199.48', high: '502.66' }]);
    const inverted = raster({ type: 'pseudocolor', band: 1, ramp: 'greys', invert: true, min: null, max: null });
    assert.deepEqual(inverted.entries[0]!.kind === 'ramp' && [inverted.entries[0]!.colours[0], inverted.entries[0]!.low], [
      '#000000',
      '2 %',
    ]);
    assert.equal(raster({ type: 'hillshade', band: 1, azimuth: 315, altitude: 45, zFactor: 1 }).entries[0]!.kind, 'ramp');
    const rgb = raster({
      type: 'rgb',
      red: { band: 3, min: 30, max: 112.5 },
      green: { band: 2, min: null, max: null },
      blue: { band: 1, min: 0, max: 1 },
    });
    assert.deepEqual(rgb.entries[0]!.kind === 'channels' && rgb.entries[0]!.channels.map((c) => c.label), [
      'R: band 3 (30 – 112.5)',
      'G: band 2',
      'B: band 1 (0 – 1)',
    ]);
  });

  it('heatmap and bivariate', () => {
    const heat = legendFor(layer('h', { type: 'heatmap', radius: 20, intensity: 1, weightField: 'n', weightMax: 5, ramp: 'ylorrd' }));
    assert.deepEqual(heat.entries[0]!.kind === 'ramp' && [heat.entries[0]!.low, heat.entries[0]!.high, heat.entries[0]!.title], [
      'sparse',
      'dense',
      'density weighted by n',
    ]);
    const bi = legendFor(
      layer('b', {
        type: 'bivariate',
        fieldX: 'X',
        fieldY: 'Y',
        breaksX: [0, 1, 2, 3],
        breaksY: [0, 10, 20, 30],
        palette: Array(9).fill('#000000'),
        nullColour: null,
        ...symbol,
      }),
    );
    assert.equal(bi.entries[0]!.kind, 'grid');
    assert.equal(bi.entries.length, 1, 'features missing a value are hidden: no swatch for them');
  });

  it('bivariate with a colour for features missing either value: a "No value" swatch of the colour the map paints them', async () => {
    const style = {
      type: 'bivariate',
      fieldX: 'X',
      fieldY: 'Y',
      breaksX: [0, 1, 2, 3],
      breaksY: [0, 10, 20, 30],
      palette: Array(9).fill('#000000'),
      nullColour: '#cccccc',
      ...symbol,
    } as const;
    const bi = legendFor(layer('b', style));
    assert.deepEqual(
      bi.entries.map((e) => e.kind),
      ['grid', 'swatches'],
    );
    const swatches = bi.entries[1]!;
    assert.ok(swatches.kind === 'swatches');
    assert.deepEqual(swatches.items, [{ colour: '#cccccc', stroke: symbol.stroke, label: 'No value' }]);
    // What MapLibre's expression engine paints a feature missing either value (none is hidden).
    const paint = vectorPaintOf(LayerStyle.parse(style) as BivariateStyle);
    assert.equal(paint.filter, null);
    const spec = await loadStyleSpec();
    if (!spec) return;
    for (const props of [{ X: null, Y: 5 }, { X: 1 }, { X: 1, Y: 'n/a' }, {}])
      assert.equal(spec.evaluate('fill', 'paint', 'fill-color', paint.colour, props), swatches.items[0]!.colour, JSON.stringify(props));
    assert.notEqual(spec.evaluate('fill', 'paint', 'fill-color', paint.colour, { X: 1, Y: 5 }), '#cccccc');
  });
});

describe('visibleLegends', () => {
  it('lists visible layers only, the top of the stack first', () => {
    const s = { type: 'simple', fill: '#000000', ...symbol };
    const legends = visibleLegends([
      layer('a', s, { order: 0 }),
      layer('b', s, { order: 1, visible: false }),
      layer('c', s, { order: 2 }),
      layer('d', s, { order: 3, opacity: 0 }),
    ]);
    assert.deepEqual(
      legends.map((l) => l.layerId),
      ['c', 'a'],
    );
  });
});
