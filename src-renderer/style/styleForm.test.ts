import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Layer } from '../../src-shared/domain/layer.js';
import { testLayer } from '../../src-shared/domain/testing/testLayer.js';
import { LayerStyle } from '../../src-shared/style/styleModel.js';
import {
  applyPlan,
  fieldsFor,
  formFromLayer,
  KEEP_LABELS,
  labelsCall,
  opacityCall,
  styleCall,
  withKind,
  type StyleForm,
} from './styleForm.js';

const symbol = { stroke: '#222222', strokeWidth: 1, pointRadius: 5 };
const label = (text: string) => ({
  text,
  size: 12,
  colour: '#222222',
  haloColour: '#ffffff',
  haloWidth: 1.5,
  placement: 'point',
  minZoom: 0,
});
const FIELDS = [
  { name: 'NAME', type: 'string' },
  { name: 'BIR74', type: 'real' },
  { name: 'CRESS_ID', type: 'integer' },
  { name: 'FIPS', type: 'string' },
];

function layer(style: unknown = { type: 'simple', fill: '#e4572e', ...symbol }): Layer {
  return testLayer({ id: 'nc1', name: 'nc', style: LayerStyle.parse(style), info: { fields: FIELDS } });
}

const graduated = {
  type: 'graduated',
  field: 'BIR74',
  method: 'jenks',
  breaks: [0, 10, 20, 30, 40],
  colours: ['#ffffcc', '#fed976', '#fd8d3c', '#e31a1c'],
  ramp: 'ylorrd',
  nullColour: null,
  ...symbol,
};

describe('formFromLayer: the form opens on the layer’s current style', () => {
  it('simple: the colour; no labels', () => {
    assert.deepEqual(formFromLayer(layer({ type: 'simple', fill: '#00FF00', ...symbol })), {
      kind: 'simple',
      colour: '#00ff00',
      field: '',
      method: 'quantile',
      classes: 5,
      ramp: 'ylorrd',
      labelField: '',
      scale: 1,
    });
  });

  it('extrude: the field, the scale and the colour; Apply calls style.extrude', () => {
    const extruded = layer({ type: 'extrude', field: 'BIR74', scale: 2.5, fill: '#3366CC', ...symbol });
    const form = formFromLayer(extruded);
    assert.deepEqual([form.kind, form.field, form.scale, form.colour], ['extrude', 'BIR74', 2.5, '#3366cc']);
    assert.deepEqual(styleCall(extruded, { ...form, scale: 3 }), {
      entry: 'style.extrude',
      params: { layer: extruded.id, field: 'BIR74', scale: 3, color: '#3366cc' },
    });
    assert.match((styleCall(extruded, { ...form, field: 'NAME' }) as { problem: string }).problem, /numeric field/);
  });

  it('graduated: field, method, the number of classes and the ramp; single-field labels', () => {
    const form = formFromLayer(layer({ ...graduated, labels: label('{NAME}') }));
    assert.deepEqual(
      [form.kind, form.field, form.method, form.classes, form.ramp, form.labelField],
      ['graduated', 'BIR74', 'jenks', 4, 'ylorrd', 'NAME'],
    );
  });

  it('categorized: the field; a label template the form cannot edit is kept', () => {
    const style = {
      type: 'categorized',
      field: 'FIPS',
      categories: [{ value: '37001', colour: '#4e79a7', label: '37001' }],
      otherColour: '#bbbbbb',
      labels: label('{NAME} ({FIPS})'),
      ...symbol,
    };
    const form = formFromLayer(layer(style));
    assert.deepEqual([form.kind, form.field, form.labelField], ['categorized', 'FIPS', KEEP_LABELS]);
    assert.equal(labelsCall(layer(style), form), null, 'the template stays');
  });

  it('a style the panel has no kind for (rules) opens as a single colour, so Apply replaces it', () => {
    const rules = { type: 'rules', rules: [{ filter: 'BIR74 > 10', label: 'many', colour: '#ff0000' }], elseColour: null, ...symbol };
    const l = layer(rules);
    const form = formFromLayer(l);
    assert.equal(form.kind, 'simple');
    const plan = applyPlan(l, form);
    assert.ok('calls' in plan);
    assert.deepEqual(
      plan.calls.map((c) => c.entry),
      ['style.set_simple'],
    );
  });
});

describe('fields per kind', () => {
  it('graduated offers numeric fields only; categorized every field', () => {
    assert.deepEqual(fieldsFor(layer(), 'graduated'), ['BIR74', 'CRESS_ID']);
    assert.deepEqual(fieldsFor(layer(), 'categorized'), ['NAME', 'BIR74', 'CRESS_ID', 'FIPS']);
    assert.deepEqual(fieldsFor(layer(), 'simple'), []);
  });

  it('switching kind keeps a usable field, else picks a text field for categories and a number for classes', () => {
    const l = layer();
    const simple = formFromLayer(l);
    const cat = withKind(l, simple, 'categorized');
    assert.equal(cat.field, 'NAME');
    const grad = withKind(l, cat, 'graduated');
    assert.equal(grad.field, 'BIR74', 'NAME is text: graduated takes the first number');
    assert.equal(withKind(l, grad, 'categorized').field, 'BIR74', 'a number can be categorized too');
  });
});

describe('styleCall: the tool and parameters for each kind', () => {
  const l = layer();
  const form = (over: Partial<StyleForm>): StyleForm => ({ ...formFromLayer(l), ...over });

  it('simple → style.set_simple with the fill', () => {
    assert.deepEqual(styleCall(l, form({ colour: '#00FF00' })), { entry: 'style.set_simple', params: { layer: 'nc1', fill: '#00ff00' } });
  });

  it('categorized → style.categorize with the field', () => {
    assert.deepEqual(styleCall(l, form({ kind: 'categorized', field: 'NAME' })), {
      entry: 'style.categorize',
      params: { layer: 'nc1', field: 'NAME' },
    });
  });

  it('graduated → style.graduate with field, method, classes and ramp', () => {
    assert.deepEqual(styleCall(l, form({ kind: 'graduated', field: 'BIR74', method: 'quantile', classes: 5, ramp: 'blues' })), {
      entry: 'style.graduate',
      params: { layer: 'nc1', field: 'BIR74', method: 'quantile', classes: 5, ramp: 'blues' },
    });
  });

  it('refuses what the tool would refuse: a text field for classes, no field, a bad colour', () => {
    assert.match((styleCall(l, form({ kind: 'graduated', field: 'NAME' })) as { problem: string }).problem, /numeric field/);
    assert.match((styleCall(l, form({ kind: 'categorized', field: '' })) as { problem: string }).problem, /field/);
    assert.match((styleCall(l, form({ colour: 'green' })) as { problem: string }).problem, /colour/);
  });
});

describe('applyPlan and the other calls', () => {
  it('sends only what changed: a new label field alone is one labels call', () => {
    const l = layer();
    const plan = applyPlan(l, { ...formFromLayer(l), labelField: 'NAME' });
    assert.deepEqual(plan, { calls: [{ entry: 'style.labels', params: { layer: 'nc1', field: 'NAME' } }] });
  });

  it('colouring then labels when both changed; no labels any more is remove', () => {
    const l = layer({ ...graduated, labels: label('{NAME}') });
    const plan = applyPlan(l, { ...formFromLayer(l), classes: 5, labelField: '' });
    assert.ok('calls' in plan);
    assert.deepEqual(
      plan.calls.map((c) => [c.entry, c.params]),
      [
        ['style.graduate', { layer: 'nc1', field: 'BIR74', method: 'jenks', classes: 5, ramp: 'ylorrd' }],
        ['style.labels', { layer: 'nc1', remove: true }],
      ],
    );
  });

  it('nothing changed: the colouring runs again (categories read afresh)', () => {
    const l = layer(graduated);
    const plan = applyPlan(l, formFromLayer(l));
    assert.ok('calls' in plan);
    assert.deepEqual(
      plan.calls.map((c) => c.entry),
      ['style.graduate'],
    );
  });

  it('opacity: percent → 0–1, clamped', () => {
    assert.deepEqual(opacityCall(layer(), 50), { entry: 'layers.set_opacity', params: { layer: 'nc1', opacity: 0.5 } });
    assert.equal(opacityCall(layer(), 140).params.opacity, 1);
  });
});
