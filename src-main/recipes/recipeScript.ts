import { findAlgorithm } from '../../src-shared/processing/catalogue.js';
import type { LayerPlaceholder, Recipe, RecipeStep } from '../../src-shared/domain/recipe.js';
import { assign, comment, join, lit, ref, renderCommand, type Word } from './shellWords.js';

/**
 * The recipe as a POSIX shell script of GDAL's own programs, for the steps that have one: the
 * same switches the GIS worker passes to GDAL (`gis-worker/algorithms/`). Inputs are the
 * positional parameters ("$1"…), outputs go to "$OUT_DIR" (default ./recipe-output). A step
 * without an equivalent is a comment, and so is any step that needs its output.
 */

/** A layer as the script knows it: a file, and for a vector step output the layer inside it. */
interface ScriptLayer {
  file: Word;
  /** Known name of the layer in the file; undefined: the script finds the first one at run time. */
  layer?: string;
}

interface StepCommand {
  lines: string[];
  output: ScriptLayer;
}

type Resolve = (p: LayerPlaceholder) => ScriptLayer | null;

export interface RecipeScript {
  text: string;
  /** Steps written as commands (1-based); the others are comments. */
  commandSteps: number[];
}

/**
 * The worker's GeoTIFF creation options (`gis-worker/algorithms/rasterInput.ts` GTIFF_CREATION,
 * not importable here: that module loads GDAL). recipeScript.test.ts runs both and compares.
 */
const GTIFF_CREATION = ['TILED=YES', 'COMPRESS=DEFLATE', 'BIGTIFF=IF_SAFER'];

const HELPERS = [
  '# The first layer of a vector file, and the name of its geometry column (GEOMETRY when it has none).',
  'first_layer() { ogrinfo -ro -q "$1" | sed -n \'1s/^1: \\(.*\\) ([^()]*)$/\\1/p;1s/^1: \\([^(]*\\)$/\\1/p\' | head -n 1; }',
  'geom_column() { g=$(ogrinfo -ro -so "$1" "$2" | sed -n \'s/^Geometry Column = //p\' | head -n 1); printf \'%s\' "${g:-GEOMETRY}"; }',
  '# An SQL identifier in double quotes, any double quote inside doubled.',
  'sql_ident() { printf \'"%s"\' "$(printf \'%s\' "$1" | sed \'s/"/""/g\')"; }',
];

export function recipeScript(recipe: Recipe): RecipeScript {
  const lines: string[] = [
    '#!/bin/sh',
    comment(`Mapwright recipe "${recipe.name}" (${recipe.createdAt}) as GDAL command lines.`),
    comment(
      `Usage: sh script.sh ${recipe.inputs.map((i) => i.id.toUpperCase()).join(' ')}   (outputs in $OUT_DIR, default ./recipe-output)`,
    ),
    'set -eu',
    ...HELPERS,
    `if [ "$#" -lt ${recipe.inputs.length} ]; then echo "usage: $0 ${recipe.inputs.map((i) => i.id.toUpperCase()).join(' ')}" >&2; exit 2; fi`,
    'out="${OUT_DIR:-./recipe-output}"',
    'mkdir -p -- "$out"',
  ];
  const inputs = new Map<string, ScriptLayer>();
  recipe.inputs.forEach((input, i) => {
    const name = `in${i + 1}`;
    // A path starting with '-' would read as an option to GDAL's programs.
    lines.push(
      comment(`${input.id}: a ${input.kind ?? 'layer'} like '${input.from}'`),
      `${name}="$${i + 1}"`,
      `case "$${name}" in -*) ${name}="./$${name}" ;; esac`,
    );
    inputs.set(input.id, { file: ref(name) });
  });
  const outputs = new Map<number, ScriptLayer>();
  const resolve: Resolve = (p) => ('$input' in p ? (inputs.get(p.$input) ?? null) : p.layer === 0 ? (outputs.get(p.$step) ?? null) : null);
  const commandSteps: number[] = [];
  recipe.steps.forEach((step, i) => {
    const n = i + 1;
    const made = stepCommand(step, n, resolve);
    if (typeof made === 'string') {
      lines.push('', comment(`step ${n}: ${step.tool} ${made}`));
      return;
    }
    lines.push('', comment(`step ${n}: ${step.tool} ${algorithmOf(step) ?? ''}`.trimEnd()), ...made.lines);
    outputs.set(n, made.output);
    commandSteps.push(n);
  });
  lines.push('', 'echo "Outputs in $out"', '');
  return { text: lines.join('\n'), commandSteps };
}

function algorithmOf(step: RecipeStep): string | null {
  return step.tool === 'processing.run' && typeof step.args.algorithm === 'string' ? step.args.algorithm : null;
}

/** The step's commands, or the words of the comment that says why there are none. */
function stepCommand(step: RecipeStep, n: number, resolve: Resolve): StepCommand | string {
  const algorithm = algorithmOf(step);
  const build = algorithm ? BUILDERS[algorithm] : undefined;
  if (!algorithm || !build) return 'has no command-line equivalent';
  const spec = findAlgorithm(algorithm)!;
  // The params as the worker reads them (defaults filled); layers stand in as placeholders.
  const layers = new Map<string, ScriptLayer>();
  const rawParams = (step.args.params ?? {}) as Record<string, unknown>;
  const params: Record<string, unknown> = { ...rawParams };
  for (const key of spec.layerParams) {
    const value = rawParams[key];
    if (value === undefined) continue;
    const placeholder = value as LayerPlaceholder;
    const layer = typeof value === 'object' && value !== null ? resolve(placeholder) : null;
    if (!layer) return 'has no command-line equivalent here: it needs a layer an earlier step could not make in the script';
    layers.set(key, layer);
    params[key] = `layer:${key}`;
  }
  const parsed = spec.params.safeParse(params);
  if (!parsed.success) return 'has parameters the script cannot check, so it is left out';
  return build({ n, name: `step${n}_${algorithm}`, p: parsed.data as Record<string, unknown>, layers });
}

interface BuildInput {
  n: number;
  /** The output's base name (file and vector layer): `step2_buffer`. */
  name: string;
  p: Record<string, unknown>;
  layers: Map<string, ScriptLayer>;
}

type Builder = (b: BuildInput) => StepCommand | string;

const num = (v: unknown): string => {
  const x = Number(v);
  if (!Number.isFinite(x)) throw new Error(`Not a finite number: ${String(v)}`);
  return String(x);
};

const gpkgOut = (name: string): ScriptLayer => ({ file: join(ref('out'), lit(`/${name}.gpkg`)), layer: name });
const tifOut = (name: string): ScriptLayer => ({ file: join(ref('out'), lit(`/${name}.tif`)) });
const GTIFF = [lit('-of'), lit('GTiff'), ...GTIFF_CREATION.flatMap((co) => [lit('-co'), lit(co)])];

/** Lines that put a vector layer's file and layer name into shell variables `<v>_file`/`<v>_layer`. */
function vectorVars(v: string, layer: ScriptLayer): string[] {
  return [
    assign(`${v}_file`, layer.file),
    layer.layer !== undefined ? assign(`${v}_layer`, lit(layer.layer)) : `${v}_layer=$(first_layer "\${${v}_file}")`,
  ];
}

const BUILDERS: Record<string, Builder> = {
  // reproject.ts: vectorTranslate -f GPKG -t_srs CRS -nln NAME -nlt PROMOTE_TO_MULTI.
  reproject: ({ n, name, p, layers }) => {
    const v = `s${n}`;
    const out = gpkgOut(name);
    return {
      output: out,
      lines: [
        ...vectorVars(v, layers.get('input')!),
        renderCommand([
          lit('ogr2ogr'),
          lit('-f'),
          lit('GPKG'),
          lit('-t_srs'),
          lit(String(p.target_crs)),
          lit('-nln'),
          lit(name),
          lit('-nlt'),
          lit('PROMOTE_TO_MULTI'),
          out.file,
          ref(`${v}_file`),
          ref(`${v}_layer`),
        ]),
      ],
    };
  },
  // buffer.ts: ST_Multi(ST_Buffer(geom, distance, segments)) over the features with a geometry,
  // every attribute kept, or one ST_Union of them all when dissolved.
  buffer: ({ n, name, p, layers }) => {
    const v = `s${n}`;
    const out = gpkgOut(name);
    const grown = `ST_Multi(ST_Buffer(%G, ${num(p.distance)}, ${Math.round(Number(p.segments))}))`;
    const select = p.dissolve === true ? `ST_Multi(ST_Union(${grown})) AS geom` : `${grown} AS geom, *`;
    // The layer and geometry column names come from the input file when the script runs.
    const sqlWord = sqlWith(`SELECT ${select} FROM %L WHERE %G IS NOT NULL AND NOT ST_IsEmpty(%G)`, v);
    return {
      output: out,
      lines: [
        ...vectorVars(v, layers.get('input')!),
        `${v}_g=$(sql_ident "$(geom_column "\${${v}_file}" "\${${v}_layer}")")`,
        `${v}_l=$(sql_ident "\${${v}_layer}")`,
        renderCommand([
          lit('ogr2ogr'),
          lit('-f'),
          lit('GPKG'),
          lit('-dialect'),
          lit('SQLite'),
          lit('-sql'),
          sqlWord,
          lit('-nln'),
          lit(name),
          lit('-nlt'),
          lit('MULTIPOLYGON'),
          out.file,
          ref(`${v}_file`),
        ]),
      ],
    };
  },
  // warp.ts: gdalwarp GTiff -t_srs CRS -r METHOD [-tr RES RES].
  warp: ({ name, p, layers }) => {
    const out = tifOut(name);
    const tr = p.resolution !== undefined ? [lit('-tr'), lit(num(p.resolution)), lit(num(p.resolution))] : [];
    return {
      output: out,
      lines: [
        renderCommand([
          lit('gdalwarp'),
          ...GTIFF,
          lit('-t_srs'),
          lit(String(p.target_crs)),
          lit('-r'),
          lit(String(p.method)),
          ...tr,
          layers.get('input')!.file,
          out.file,
        ]),
      ],
    };
  },
  // clipRaster.ts with a mask: gdalwarp -cutline MASK -cl LAYER [-crop_to_cutline]. The worker
  // also sets -dstnodata from the band (or a default for its type); gdalwarp keeps the source's.
  clip_raster: ({ n, name, p, layers }) => {
    const mask = layers.get('mask');
    if (!mask) return 'with a bounding box has no command-line equivalent in this script';
    const v = `s${n}`;
    const out = tifOut(name);
    return {
      output: out,
      lines: [
        ...vectorVars(v, mask),
        renderCommand([
          lit('gdalwarp'),
          ...GTIFF,
          lit('-cutline'),
          ref(`${v}_file`),
          lit('-cl'),
          ref(`${v}_layer`),
          ...(p.crop_to_cutline === true ? [lit('-crop_to_cutline')] : []),
          ...(p.all_touched === true ? [lit('-wo'), lit('CUTLINE_ALL_TOUCHED=TRUE')] : []),
          layers.get('input')!.file,
          out.file,
        ]),
      ],
    };
  },
  // terrain.ts on a projected DEM: gdaldem with the same switches (the worker adds -s from the
  // CRS unit; a geographic DEM is done there per latitude strip, which gdaldem cannot).
  hillshade: ({ name, p, layers }) =>
    gdaldem('hillshade', name, layers, [
      ...demCommon(p),
      lit('-z'),
      lit(num(p.z_factor)),
      lit('-alt'),
      lit(num(p.altitude)),
      ...(p.mode === 'multidirectional' ? [lit('-multidirectional')] : [lit('-az'), lit(num(p.azimuth))]),
      ...(p.mode === 'combined' ? [lit('-combined')] : []),
    ]),
  slope: ({ name, p, layers }) =>
    gdaldem('slope', name, layers, [
      ...demCommon(p),
      ...(p.units === 'percent' ? [lit('-p')] : []),
      lit('-s'),
      lit(num(1 / Number(p.z_factor))),
    ]),
  aspect: ({ name, p, layers }) =>
    gdaldem('aspect', name, layers, [...demCommon(p), ...(p.zero_for_flat === true ? [lit('-zero_for_flat')] : [])]),
};

function demCommon(p: Record<string, unknown>): Word[] {
  return [lit('-alg'), lit(String(p.algorithm)), ...(p.compute_edges === true ? [lit('-compute_edges')] : []), lit('-b'), lit(num(p.band))];
}

function gdaldem(mode: string, name: string, layers: Map<string, ScriptLayer>, args: Word[]): StepCommand {
  const out = tifOut(name);
  return {
    output: out,
    lines: [
      comment('For a projected DEM in metres (Mapwright converts degrees per latitude itself).'),
      renderCommand([lit('gdaldem'), lit(mode), ...GTIFF, ...args, layers.get('input')!.file, out.file]),
    ],
  };
}

/**
 * The SQL as one shell word: the text single-quoted, `%L` and `%G` the layer and geometry
 * column identifiers the script found (`"$sN_l"`, `"$sN_g"`), already quoted for SQL.
 */
function sqlWith(template: string, v: string): Word {
  const word: Word[] = [];
  for (const piece of template.split(/(%[LG])/)) {
    if (piece === '%L') word.push(ref(`${v}_l`));
    else if (piece === '%G') word.push(ref(`${v}_g`));
    else if (piece) word.push(lit(piece));
  }
  return join(...word);
}
