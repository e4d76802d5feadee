import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Layer } from '../domain/layer.js';
import { testLayer } from '../domain/testing/testLayer.js';
import { ToolFailure } from '../tools/toolResult.js';
import { applyParamRules } from './applyParamRules.js';

const LAYERS: Layer[] = [
  testLayer({
    id: 'L1',
    name: 'counties',
    info: {
      fields: [
        { name: 'NAME', type: 'String' },
        { name: 'POP', type: 'Integer' },
      ],
      crs: { epsg: 4326, name: 'WGS 84', geographic: true },
    },
  }),
  testLayer({
    id: 'L2',
    name: 'roads_utm',
    info: { geometryType: 'MultiLineString', crs: { epsg: 32617, name: 'UTM 17N', geographic: false } },
  }),
  testLayer({
    id: 'L3',
    name: 'dem',
    kind: 'raster',
    info: { kind: 'raster', geometryType: null, bands: [{ index: 1, dataType: 'Float32', nodata: null, min: 0, max: 1 }] },
  }),
];
const project = { listLayers: () => LAYERS, getLayer: (ref: string) => LAYERS.find((l) => l.id === ref || l.name === ref) };

function refusal(rules: Record<string, string[]>, args: Record<string, unknown>): ToolFailure {
  try {
    applyParamRules(rules, args, project);
  } catch (err) {
    assert.ok(err instanceof ToolFailure);
    assert.equal(err.code, 'invalid_params');
    return err;
  }
  assert.fail('expected a refusal');
}

describe('parameter rules against the project, before any dialog', () => {
  it('passes what fits', () => {
    applyParamRules(
      { layer: ['layer_exists', 'vector', 'geometry:polygon'], field: ['field_exists:layer', 'field_numeric'] },
      { layer: 'counties', field: 'POP' },
      project,
    );
    applyParamRules({ dem: ['layer_exists', 'raster'], band: ['band_exists:dem'] }, { dem: 'L3', band: 1 }, project);
    applyParamRules({ roads: ['layer_exists', 'crs_projected', 'geometry:line'] }, { roads: 'roads_utm' }, project);
    applyParamRules({ optional: ['layer_exists'] }, {}, project);
  });

  const cases: [string, Record<string, string[]>, Record<string, unknown>, RegExp, RegExp?][] = [
    ['unknown layer, nearest names', { layer: ['layer_exists'] }, { layer: 'countys' }, /params\.layer: no layer 'countys'/, /counties/],
    [
      'a raster where a vector is needed',
      { layer: ['layer_exists', 'vector'] },
      { layer: 'dem' },
      /'dem' is a raster; this tool needs a vector/,
    ],
    [
      'wrong geometry',
      { layer: ['layer_exists', 'geometry:polygon'] },
      { layer: 'roads_utm' },
      /has MultiLineString geometry; this tool needs polygon/,
    ],
    [
      'degrees where metres are needed',
      { layer: ['layer_exists', 'crs_projected'] },
      { layer: 'counties' },
      /in degrees \(EPSG:4326\)/,
      /Reproject/,
    ],
    [
      'unknown field, nearest names',
      { layer: ['layer_exists'], field: ['field_exists:layer'] },
      { layer: 'counties', field: 'PPO' },
      /no field 'PPO' in 'counties'/,
      /POP/,
    ],
    [
      'text field where a number is needed',
      { layer: ['layer_exists'], field: ['field_exists:layer', 'field_numeric'] },
      { layer: 'counties', field: 'NAME' },
      /'NAME' of 'counties' is String, not numeric/,
      /POP/,
    ],
    [
      'missing band',
      { dem: ['layer_exists', 'raster'], band: ['band_exists:dem'] },
      { dem: 'dem', band: 3 },
      /'dem' has 1 band; there is no band 3/,
    ],
  ];
  for (const [what, rules, args, message, hint] of cases) {
    it(`refuses ${what}`, () => {
      const err = refusal(rules, args);
      assert.match(err.message, message);
      if (hint) assert.match(err.hint ?? '', hint);
    });
  }
});
