import type { Layer } from '../../src-shared/domain/layer.js';
import type { ClassMethod } from '../../src-shared/style/classify.js';
import { RAMP_NAMES, type RampName } from '../../src-shared/style/colourRamps.js';
import { defaultVectorStyle, templateFields, type LayerStyle } from '../../src-shared/style/styleModel.js';
import { i18n } from '../i18n/i18n.js';

/**
 * The style panel's form and the tool calls it stands for (pure: the panel only draws it). The
 * panel runs the same style tools the model runs, as the person, so this module only picks a
 * tool id and its parameters; the tools themselves compute categories and class breaks.
 */

export const STYLE_KINDS = ['simple', 'categorized', 'graduated', 'extrude'] as const;
export type StyleKind = (typeof STYLE_KINDS)[number];

/** The methods `style.graduate` computes from the data (`manual` needs breaks the form does not ask for). */
export const CLASS_METHODS: readonly ClassMethod[] = ['quantile', 'equal_interval', 'jenks'];
export const RAMPS: readonly RampName[] = RAMP_NAMES;

/** `labelField` value meaning "keep the label text the assistant set" (a template the form cannot edit). */
export const KEEP_LABELS = '{template}';

export interface StyleForm {
  kind: StyleKind;
  /** Simple: the one colour, #rrggbb. */
  colour: string;
  /** Categorized / graduated: the field coloured by ('' = none chosen yet). */
  field: string;
  method: ClassMethod;
  classes: number;
  ramp: RampName;
  /** '' = no labels; a field name; or KEEP_LABELS. */
  labelField: string;
  /** Extrude: metres of height per unit of the field. */
  scale: number;
}

export interface ToolCall {
  entry: string;
  params: Record<string, unknown>;
}

/**
 * GDAL's numeric field types, as `style.graduate` checks them (tools/style/styleLayer.ts; the
 * renderer may not import tools, so the list is repeated here).
 */
const NUMERIC_TYPES = new Set(['integer', 'integer64', 'real']);

/** The fields the kind can colour by: every field for categories, numeric ones for classes. */
export function fieldsFor(layer: Layer, kind: StyleKind): string[] {
  if (kind === 'simple') return [];
  // Extrusion, like classes, needs numbers.
  return layer.info.fields.filter((f) => kind === 'categorized' || NUMERIC_TYPES.has(f.type)).map((f) => f.name);
}

/** A sensible first field: a text field for categories (names, codes), the first number for classes. */
function defaultField(layer: Layer, kind: StyleKind): string {
  const fields = fieldsFor(layer, kind);
  if (kind === 'categorized') return layer.info.fields.find((f) => f.type === 'string')?.name ?? fields[0] ?? '';
  return fields[0] ?? '';
}

/** The field a label text of exactly `{FIELD}` names, or null for a template or no labels. */
function singleLabelField(style: LayerStyle): string | null {
  if (!('labels' in style) || !style.labels) return null;
  const fields = templateFields(style.labels.text);
  return fields.length === 1 && style.labels.text === `{${fields[0]!}}` ? fields[0]! : null;
}

function labelChoice(style: LayerStyle): string {
  if (!('labels' in style) || !style.labels) return '';
  return singleLabelField(style) ?? KEEP_LABELS;
}

/**
 * The form as the layer is styled now. A style the form has no kind for (rules, heatmap,
 * bivariate — the assistant's) opens as a single colour; the panel says what it would replace.
 */
export function formFromLayer(layer: Layer): StyleForm {
  const style = layer.style;
  const base: StyleForm = {
    kind: 'simple',
    colour: defaultVectorStyle(layer.order).fill,
    field: '',
    method: 'quantile',
    classes: 5,
    ramp: 'ylorrd',
    labelField: labelChoice(style),
    scale: 1,
  };
  switch (style.type) {
    case 'simple':
      return { ...base, colour: style.fill.toLowerCase() };
    case 'categorized':
      return { ...base, kind: 'categorized', field: style.field };
    case 'graduated':
      return {
        ...base,
        kind: 'graduated',
        field: style.field,
        method: style.method === 'manual' ? 'quantile' : style.method,
        classes: style.colours.length,
        ramp: style.ramp,
      };
    case 'extrude':
      return { ...base, kind: 'extrude', field: style.field, colour: style.fill.toLowerCase(), scale: style.scale };
    default:
      return base;
  }
}

/** Switching the kind keeps the field when the new kind can use it, else picks a fitting one. */
export function withKind(layer: Layer, form: StyleForm, kind: StyleKind): StyleForm {
  const field = fieldsFor(layer, kind).includes(form.field) ? form.field : defaultField(layer, kind);
  return { ...form, kind, field };
}

/** The style call for the form, or a sentence saying what is missing (in the interface's language). */
export function styleCall(layer: Layer, form: StyleForm): ToolCall | { problem: string } {
  const target = { layer: layer.id };
  switch (form.kind) {
    case 'simple':
      if (!/^#[0-9a-fA-F]{6}$/.test(form.colour)) return { problem: i18n.t('style:problemColour') };
      return { entry: 'style.set_simple', params: { ...target, fill: form.colour.toLowerCase() } };
    case 'categorized':
      if (!fieldsFor(layer, 'categorized').includes(form.field)) return { problem: i18n.t('style:problemField') };
      return { entry: 'style.categorize', params: { ...target, field: form.field } };
    case 'graduated':
      if (!fieldsFor(layer, 'graduated').includes(form.field))
        return { problem: i18n.t('style:problemNumeric', { name: layer.name, n: fieldsFor(layer, 'graduated').length }) };
      return {
        entry: 'style.graduate',
        params: { ...target, field: form.field, method: form.method, classes: form.classes, ramp: form.ramp },
      };
    case 'extrude':
      if (!fieldsFor(layer, 'extrude').includes(form.field)) return { problem: i18n.t('style:problemHeightField') };
      if (!(form.scale > 0)) return { problem: i18n.t('style:problemScale') };
      return { entry: 'style.extrude', params: { ...target, field: form.field, scale: form.scale, color: form.colour.toLowerCase() } };
  }
}

/** True when the form's colouring differs from what the layer shows now. */
function styleDiffers(layer: Layer, form: StyleForm): boolean {
  if (layer.style.type !== form.kind) return true;
  const now = formFromLayer(layer);
  switch (form.kind) {
    case 'simple':
      return now.colour !== form.colour.toLowerCase();
    case 'categorized':
      return now.field !== form.field;
    case 'graduated':
      return now.field !== form.field || now.method !== form.method || now.classes !== form.classes || now.ramp !== form.ramp;
    case 'extrude':
      return now.field !== form.field || now.scale !== form.scale || now.colour !== form.colour.toLowerCase();
  }
}

/** The labels call that makes the layer's labels what the form says, or null when they already are. */
export function labelsCall(layer: Layer, form: StyleForm): ToolCall | null {
  const now = labelChoice(layer.style);
  if (form.labelField === KEEP_LABELS || form.labelField === now) return null;
  if (form.labelField === '') return { entry: 'style.labels', params: { layer: layer.id, remove: true } };
  return { entry: 'style.labels', params: { layer: layer.id, field: form.labelField } };
}

/**
 * The calls "Apply" makes, in order: the colouring (the style tools keep the labels), then the
 * labels. Each is its own audited, undoable change, so only what changed is sent — except that
 * Apply with nothing changed runs the colouring again (categories and classes are read from the
 * data afresh, e.g. after edits).
 */
export function applyPlan(layer: Layer, form: StyleForm): { calls: ToolCall[] } | { problem: string } {
  const style = styleCall(layer, form);
  if ('problem' in style) return style;
  const labels = labelsCall(layer, form);
  const calls = styleDiffers(layer, form) || !labels ? [style] : [];
  return { calls: labels ? [...calls, labels] : calls };
}

/** The opacity call for a slider position in percent. */
export function opacityCall(layer: Layer, percent: number): ToolCall {
  return { entry: 'layers.set_opacity', params: { layer: layer.id, opacity: Math.min(100, Math.max(0, Math.round(percent))) / 100 } };
}
