import type { ExpressionSpecification } from 'maplibre-gl';
import { filterExpression, parseFilter } from './ruleFilter.js';
import type { CategoryValue } from './vectorStyleModel.js';
import type { LabelledStyle } from './styleModel.js';

/**
 * What a vector style means per feature, independent of geometry: its colour (a constant or a
 * data expression), an optional per-feature size, and an optional filter for the features it
 * draws at all. compileVector.ts turns this into fill, line and circle layers.
 */
export interface VectorPaint {
  colour: string | ExpressionSpecification;
  size: number | ExpressionSpecification | null;
  /** null: every feature is drawn. */
  filter: ExpressionSpecification | null;
}

const get = (field: string): ExpressionSpecification => ['get', field];
const isNumber = (field: string): ExpressionSpecification => ['==', ['typeof', get(field)], 'number'];
const asNumber = (field: string): ExpressionSpecification => ['number', get(field)];

export function vectorPaintOf(style: LabelledStyle): VectorPaint {
  switch (style.type) {
    case 'simple':
    case 'extrude':
      return { colour: style.fill, size: null, filter: null };
    case 'categorized':
      return categorizedPaint(style.field, style.categories, style.otherColour);
    case 'graduated': {
      const fallback = style.nullColour ?? style.colours[0]!;
      const colour: ExpressionSpecification = ['case', isNumber(style.field), stepOver(style.field, style.breaks, style.colours), fallback];
      const size: ExpressionSpecification | null = style.sizes
        ? ['case', isNumber(style.field), stepOver(style.field, style.breaks, style.sizes), style.sizes[0]!]
        : null;
      return { colour, size, filter: style.nullColour === null ? isNumber(style.field) : null };
    }
    case 'rules': {
      const tests = style.rules.map((r) => filterExpression(parseFilter(r.filter)));
      const fallback = style.elseColour ?? style.rules[0]!.colour;
      const colour: ExpressionSpecification = [
        'case',
        ...tests.flatMap((t, i) => [t, style.rules[i]!.colour]),
        fallback,
      ] as ExpressionSpecification;
      const sized = style.rules.some((r) => r.size !== undefined);
      const size: ExpressionSpecification | null = sized
        ? ([
            'case',
            ...tests.flatMap((t, i) => [t, style.rules[i]!.size ?? style.pointRadius]),
            style.pointRadius,
          ] as ExpressionSpecification)
        : null;
      const filter: ExpressionSpecification | null =
        style.elseColour === null ? (tests.length === 1 ? tests[0]! : ['any', ...tests]) : null;
      return { colour, size, filter };
    }
    case 'bivariate': {
      const classOf = (field: string, breaks: readonly number[]): ExpressionSpecification => [
        'step',
        asNumber(field),
        0,
        breaks[1]!,
        1,
        breaks[2]!,
        2,
      ];
      const index: ExpressionSpecification = ['+', classOf(style.fieldX, style.breaksX), ['*', 3, classOf(style.fieldY, style.breaksY)]];
      const match = ['match', index, ...style.palette.flatMap((c, i) => [i, c]), style.palette[0]!] as ExpressionSpecification;
      const both: ExpressionSpecification = ['all', isNumber(style.fieldX), isNumber(style.fieldY)];
      const colour: ExpressionSpecification = ['case', both, match, style.nullColour ?? style.palette[0]!];
      return { colour, size: null, filter: style.nullColour === null ? both : null };
    }
  }
}

/** `step` over a numeric field: `outputs[i]` from `breaks[i]` on; one output needs no step. */
function stepOver<T extends string | number>(field: string, breaks: readonly number[], outputs: readonly T[]): ExpressionSpecification | T {
  if (outputs.length === 1) return outputs[0]!;
  const stops = outputs.slice(1).flatMap((out, i) => [breaks[i + 1]!, out]);
  return ['step', asNumber(field), outputs[0]!, ...stops] as ExpressionSpecification;
}

function categorizedPaint(
  field: string,
  categories: readonly { value: CategoryValue; colour: string }[],
  other: string | null,
): VectorPaint {
  const fallback = other ?? categories[0]!.colour;
  const nulls = categories.find((c) => c.value === null);
  const valued = categories.filter((c) => c.value !== null);
  const seen = new Set<string>();
  const unique = valued.filter((c) => {
    const key = `${typeof c.value}:${String(c.value)}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  // `match` is a lookup table, but takes only strings or only integers as labels; anything
  // else (decimals, booleans, a mix) is spelled out as equality tests.
  const allStrings = unique.every((c) => typeof c.value === 'string');
  const allIntegers = unique.every((c) => typeof c.value === 'number' && Number.isInteger(c.value));
  let body: string | ExpressionSpecification = fallback;
  if (unique.length > 0 && (allStrings || allIntegers)) {
    body = ['match', get(field), ...unique.flatMap((c) => [c.value, c.colour]), fallback] as ExpressionSpecification;
  } else if (unique.length > 0) {
    body = ['case', ...unique.flatMap((c) => [['==', get(field), c.value], c.colour]), fallback] as ExpressionSpecification;
  }
  const colour: string | ExpressionSpecification = nulls ? ['case', ['==', get(field), null], nulls.colour, body] : body;
  let filter: ExpressionSpecification | null = null;
  if (other === null) {
    const listed: ExpressionSpecification = ['in', get(field), ['literal', unique.map((c) => c.value)]];
    filter = nulls ? ['any', ['==', get(field), null], listed] : listed;
  }
  return { colour, size: null, filter };
}
