import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Layer } from '../../domain/layer.js';
import { testLayer } from '../../domain/testing/testLayer.js';
import { ToolFailure } from '../toolResult.js';
import { applyParamRules, type RuleOptions } from './applyParamRules.js';
import { checkParamRules, checkRuleTypes } from './paramRules.js';

const LAYERS: Layer[] = [
  testLayer({
    id: 'L1',
    name: 'counties',
    info: {
      fields: [
        { name: 'NAME', type: 'String' },
        { name: 'POP', type: 'Integer' },
        { name: 'POP_EST', type: 'Real' },
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
  testLayer({ id: 'L4', name: 'dem_2', kind: 'raster', info: { kind: 'raster', geometryType: null, bands: [] } }),
];
const project = { listLayers: () => LAYERS, getLayer: (ref: string) => LAYERS.find((l) => l.id === ref || l.name === ref) };

function refusal(rules: Record<string, string[]>, args: Record<string, unknown>, options?: RuleOptions): ToolFailure {
  try {
    applyParamRules(rules, args, project, options);
  } catch (err) {
    assert.ok(err instanceof ToolFailure, `a ToolFailure, not ${String(err)}`);
    assert.equal(err.code, 'invalid_params');
    assert.equal(err.retryable, false);
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
    applyParamRules({ optional: ['layer_exists'] }, { optional: null }, project);
  });

  const cases: [string, Record<string, string[]>, Record<string, unknown>, RegExp, RegExp?][] = [
    ['unknown layer, nearest names', { layer: ['layer_exists'] }, { layer: 'countys' }, /^layer: no layer 'countys'/, /counties/],
    [
      'a raster where a vector is needed',
      { layer: ['layer_exists', 'vector'] },
      { layer: 'dem' },
      /^layer: 'dem' is a raster layer; this tool needs a vector layer/,
    ],
    [
      'wrong geometry',
      { layer: ['layer_exists', 'geometry:polygon'] },
      { layer: 'roads_utm' },
      /has MultiLineString geometry; this tool needs a polygon layer/,
      /Choose a polygon layer/,
    ],
    [
      'lines where points are needed, saying how to make points',
      { layer: ['layer_exists', 'geometry:point'] },
      { layer: 'roads_utm' },
      /this tool needs a point layer/,
      /centroids/,
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
      /^field: 'counties' has no field 'PPO'\.$/,
      /Nearest fields of 'counties': POP \(Integer\)/,
    ],
    [
      'a field in the wrong letter case, naming the right one',
      { layer: ['layer_exists'], field: ['field_exists:layer', 'field_numeric'] },
      { layer: 'counties', field: 'pop_est' },
      /no field 'pop_est'\. Did you mean 'POP_EST'\?/,
      /Nearest numeric fields of 'counties': POP_EST \(Real\)/,
    ],
    [
      'text field where a number is needed',
      { layer: ['layer_exists'], field: ['field_exists:layer', 'field_numeric'] },
      { layer: 'counties', field: 'NAME' },
      /field 'NAME' of 'counties' holds String values; this tool needs numbers/,
      /Numeric fields of 'counties': POP \(Integer\), POP_EST \(Real\)/,
    ],
    [
      'missing band',
      { dem: ['layer_exists', 'raster'], band: ['band_exists:dem'] },
      { dem: 'dem', band: 3 },
      /'dem' has 1 band; there is no band 3/,
      /Bands are numbered 1 to 1/,
    ],
    [
      'a band of a raster that lists none',
      { dem: ['layer_exists', 'raster'], band: ['band_exists:dem'] },
      { dem: 'dem_2', band: 1 },
      /'dem_2' has 0 bands; there is no band 1/,
    ],
    ['a band that is no whole number', { dem: ['layer_exists'], band: ['band_exists:dem'] }, { dem: 'dem', band: 1.5 }, /no band 1\.5/],
  ];
  for (const [what, rules, args, message, hint] of cases) {
    it(`refuses ${what}`, () => {
      const err = refusal(rules, args);
      assert.match(err.message, message);
      if (hint) assert.match(err.hint ?? '', hint);
    });
  }

  it('suggests layers of the kind the tool takes first', () => {
    const err = refusal({ layer: ['layer_exists', 'raster'] }, { layer: 'counties_dem' });
    assert.match(err.hint ?? '', /^Nearest layers: dem, dem_2\. Call inspect_list_layers/);
    const empty = { listLayers: () => [], getLayer: () => undefined };
    assert.throws(
      () => applyParamRules({ layer: ['layer_exists'] }, { layer: 'x' }, empty),
      (e: ToolFailure) => /no layers yet; load one with layers_load/.test(e.hint ?? ''),
    );
  });

  it('checks a list parameter item by item, naming the item', () => {
    applyParamRules({ layer: ['layer_exists'], fields: ['field_exists:layer'] }, { layer: 'counties', fields: ['NAME', 'POP'] }, project);
    const field = refusal({ layer: ['layer_exists'], fields: ['field_exists:layer'] }, { layer: 'counties', fields: ['NAME', 'PO'] });
    assert.match(field.message, /^fields\[1\]: 'counties' has no field 'PO'/);
    const band = refusal({ layer: ['layer_exists'], bands: ['band_exists:layer'] }, { layer: 'dem', bands: [1, 2] });
    assert.match(band.message, /^bands\[1\]: 'dem' has 1 band; there is no band 2/);
    const layers = refusal({ inputs: ['layer_exists', 'raster'] }, { inputs: ['dem', 'counties'] });
    assert.match(layers.message, /^inputs\[1\]: 'counties' is a vector layer; this tool needs a raster layer/);
  });

  it('checks the layer before the fields of it, whatever the order of the rules', () => {
    const err = refusal({ field: ['field_exists:layer'], layer: ['layer_exists'] }, { layer: 'nowhere', field: 'POP' });
    assert.match(err.message, /^layer: no layer 'nowhere'/);
  });

  it('names the tools to call instead when the hint has them', () => {
    const alternativesFor: RuleOptions['alternativesFor'] = (layer, need) =>
      need === 'layer' ? [`raster_tool_for_${layer.name}`] : ['style_categorize'];
    const kind = refusal({ layer: ['layer_exists', 'vector'] }, { layer: 'dem' }, { alternativesFor });
    assert.equal(kind.hint, "For 'dem' use raster_tool_for_dem.");
    const text = refusal(
      { layer: ['layer_exists'], f: ['field_exists:layer', 'field_numeric'] },
      { layer: 'counties', f: 'NAME' },
      { alternativesFor },
    );
    assert.match(text.hint ?? '', /For text values use style_categorize\./);
  });

  describe('hostile values', () => {
    it('a layer name that is SQL is only a name that is not there', () => {
      const sql = "x'; DROP TABLE layers; --";
      const err = refusal({ layer: ['layer_exists'] }, { layer: sql });
      assert.equal(err.message, `layer: no layer '${sql}' in the project.`);
      assert.equal(LAYERS.length, 4);
    });

    it('a 10k-character name is clipped in the message and compared quickly', () => {
      const long = 'd'.repeat(10_000);
      const started = performance.now();
      const err = refusal({ layer: ['layer_exists'] }, { layer: long });
      assert.ok(performance.now() - started < 500, 'no quadratic comparison of the whole name');
      assert.ok(err.message.length < 200, `a short message: ${err.message.length} characters`);
      assert.match(err.message, /'d{80}…' \(10000 characters\)/);
      const field = refusal({ layer: ['layer_exists'], field: ['field_exists:layer'] }, { layer: 'counties', field: long });
      assert.ok(field.message.length < 200);
    });

    it('a non-string where a layer or field is expected is refused by type, not looked up', () => {
      for (const [value, type] of [
        [42, 'a number'],
        [{ name: 'counties' }, 'an object'],
        [true, 'a boolean'],
      ] as const) {
        const err = refusal({ layer: ['layer_exists'] }, { layer: value });
        assert.equal(err.message, `layer: expects a layer id or name (text), not ${type}.`);
      }
      const nested = refusal({ layers: ['layer_exists'] }, { layers: [['counties']] });
      assert.match(nested.message, /^layers\[0\]: expects a layer id or name \(text\), not a list/);
      const field = refusal({ layer: ['layer_exists'], field: ['field_exists:layer'] }, { layer: 'counties', field: 7 });
      assert.match(field.message, /^field: expects a field name \(text\), not a number/);
      const band = refusal({ dem: ['layer_exists'], band: ['band_exists:dem'] }, { dem: 'dem', band: '1' });
      assert.match(band.message, /there is no band '1'/);
    });

    it('a name with line breaks stays on one line', () => {
      const err = refusal({ layer: ['layer_exists'] }, { layer: 'a\nb\r\nc' });
      assert.equal(err.message, "layer: no layer 'a b c' in the project.");
    });
  });
});

describe('parameter rules checked for sense against the parameters', () => {
  it('refuses unknown rules, unknown parameters and rules that need a layer rule', () => {
    assert.deepEqual(checkParamRules({ layer: ['layer_exists', 'vector'], field: ['field_exists:layer'] }, ['layer', 'field']), []);
    const problems = checkParamRules(
      { layer: ['metres'], nope: ['layer_exists'], field: ['field_exists:other'], band: ['band_exists:band'], zone: ['raster'] },
      ['layer', 'field', 'band', 'zone', 'other'],
    ).map(([p, m]) => `${p}: ${m}`);
    assert.ok(problems.some((p) => /^layer: unknown rule 'metres'/.test(p)));
    assert.ok(problems.some((p) => /^nope: no parameter 'nope'/.test(p)));
    assert.ok(problems.some((p) => /^field: 'field_exists:other' needs 'layer_exists' on parameter 'other'/.test(p)));
    assert.ok(problems.some((p) => /^band: 'band_exists:band' names the parameter itself/.test(p)));
    assert.ok(problems.some((p) => /^zone: 'raster' needs 'layer_exists'/.test(p)));
  });

  it('refuses a rule on a parameter that cannot hold what it reads', () => {
    const properties = {
      layer: { type: 'string' },
      layers: { type: 'array', items: { type: 'string' } },
      maybe: { anyOf: [{ type: 'string' }, { type: 'null' }] },
      band: { type: 'integer' },
      bands: { type: 'array', items: { type: 'integer' } },
      count: { type: 'number' },
      flag: { type: 'boolean' },
    };
    assert.deepEqual(
      checkRuleTypes(
        {
          layer: ['layer_exists'],
          layers: ['layer_exists'],
          maybe: ['layer_exists'],
          band: ['band_exists:layer'],
          bands: ['band_exists:layer'],
        },
        properties,
      ),
      [],
    );
    assert.deepEqual(
      checkRuleTypes({ count: ['layer_exists'], flag: ['field_exists:layer'], layer: ['band_exists:layers'] }, properties).map(([p]) => p),
      ['count', 'flag', 'layer'],
    );
  });
});
