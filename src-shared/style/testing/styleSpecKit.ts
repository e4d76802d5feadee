/**
 * For tests only: MapLibre's own style-spec package (a dependency of maplibre-gl) as the
 * referee of compiled styles — its validator, and its expression engine to evaluate what a
 * compiled paint property or filter gives for a feature. Loaded dynamically so the tests skip,
 * rather than fail, where the package is absent.
 */

export interface Evaluated {
  /** A colour result as #rrggbb (alpha ignored), or the raw value. */
  value: unknown;
}

export interface StyleSpecKit {
  validate(style: unknown): string[];
  /** Evaluates a layer's paint or layout property for a feature's properties. */
  evaluate(
    layerType: string,
    kind: 'paint' | 'layout',
    property: string,
    value: unknown,
    properties: Record<string, unknown>,
    zoom?: number,
  ): unknown;
  /** Whether a layer filter lets a feature through. */
  passes(filter: unknown, properties: Record<string, unknown>, geometry?: 'Point' | 'LineString' | 'Polygon'): boolean;
}

interface ColorLike {
  r: number;
  g: number;
  b: number;
  a: number;
}

interface SpecModule {
  validateStyleMin(style: unknown): { message: string }[];
  latest: Record<string, Record<string, unknown>>;
  createPropertyExpression(
    value: unknown,
    spec: unknown,
  ): { result: 'success'; value: { evaluate(g: unknown, f: unknown): unknown } } | { result: 'error'; value: { message: string }[] };
  featureFilter(filter: unknown): { filter(g: unknown, f: unknown): boolean };
}

const GEOMETRY_CODES = { Point: 1, LineString: 2, Polygon: 3 } as const;

function hexOf(c: ColorLike): string {
  // Colours are premultiplied by alpha in the style-spec's Color.
  const un = (v: number) => (c.a > 0 ? v / c.a : 0);
  const h = (v: number) =>
    Math.round(Math.max(0, Math.min(1, un(v))) * 255)
      .toString(16)
      .padStart(2, '0');
  return `#${h(c.r)}${h(c.g)}${h(c.b)}`;
}

export async function loadStyleSpec(): Promise<StyleSpecKit | null> {
  const specifier = '@maplibre/maplibre-gl-style-spec';
  let mod: SpecModule;
  try {
    mod = (await import(specifier)) as SpecModule;
  } catch {
    return null;
  }
  const featureOf = (properties: Record<string, unknown>, geometry: keyof typeof GEOMETRY_CODES = 'Polygon') => ({
    type: GEOMETRY_CODES[geometry],
    properties,
    geometry: [],
  });
  return {
    validate: (style) => mod.validateStyleMin(style).map((e) => e.message),
    evaluate(layerType, kind, property, value, properties, zoom = 5) {
      const spec = mod.latest[`${kind}_${layerType}`]?.[property];
      if (!spec) throw new Error(`no spec for ${kind} ${layerType} ${property}`);
      const compiled = mod.createPropertyExpression(value, spec);
      if (compiled.result !== 'success') throw new Error(compiled.value.map((e) => e.message).join('; '));
      const out = compiled.value.evaluate({ zoom }, featureOf(properties));
      if (out && typeof out === 'object' && 'r' in out && 'a' in out) return hexOf(out as ColorLike);
      return out;
    },
    passes(filter, properties, geometry = 'Polygon') {
      return mod.featureFilter(filter).filter({ zoom: 5 }, featureOf(properties, geometry));
    },
  };
}
