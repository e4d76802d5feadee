/**
 * The style tools end to end below the dispatcher: a project held in memory, the real GIS
 * worker behind the gdal handle, real data. prepare must reject what it can with the fix in
 * the hint and compute the classes; execute saves a style the model accepts.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { Layer, type LayerInfo } from '../../src-shared/domain/layer.js';
import { parseSource } from '../../src-shared/domain/source.js';
import { BIVARIATE_PALETTE } from '../../src-shared/style/colourRamps.js';
import { defaultRasterStyle, defaultVectorStyle, LayerStyle } from '../../src-shared/style/styleModel.js';
import type { Handles, ProjectHandle } from '../../src-shared/tools/handles.js';
import { applyToolRules } from '../../src-shared/tools/paramRules/toolRules.js';
import { ToolFailure } from '../../src-shared/tools/toolResult.js';
import type { ToolDefinition } from '../../src-shared/tools/toolSdk.js';
import { createGdalHandle } from '../../src-main/composition/gdalHandle.js';
import { forkLauncher } from '../../src-main/worker-host/forkLauncher.js';
import { GisWorkerClient } from '../../src-main/worker-host/GisWorkerClient.js';
import { memoryAnnotations, noEditing } from '../toolTestFakes.js';
import { styleTools } from './index.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const FIX = path.resolve(ROOT, '..', 'shared', 'fixtures', 'gis');
const skip = existsSync(path.join(FIX, 'nc.gpkg')) ? false : `GIS fixtures not found at ${FIX}`;

function memoryProject(): ProjectHandle & { layers: Layer[] } {
  const layers: Layer[] = [];
  return {
    layers,
    listLayers: () => layers,
    relocateLayer: () => {
      throw new Error('not in these tests');
    },
    getLayer: (ref) => layers.find((l) => l.id === ref || l.name === ref),
    addLayer: (input) => {
      const layer = Layer.parse({
        id: `L${layers.length + 1}`,
        order: layers.length,
        visible: true,
        opacity: 1,
        kind: input.info.kind,
        ...input,
        style: input.style!,
      });
      layers.push(layer);
      return layer;
    },
    removeLayer: () => undefined,
    updateLayer: (id, patch) => {
      const i = layers.findIndex((l) => l.id === id);
      // Layer.parse: what the store does, so an invalid style fails here as it would there.
      layers[i] = Layer.parse({ ...layers[i]!, ...patch });
      return layers[i]!;
    },
    moveLayer: () => layers,
    outputPath: () => '/tmp/x',
    editing: noEditing(),
    ...memoryAnnotations(),
  };
}

const tool = (id: string) => styleTools.find((t) => t.id === id) as ToolDefinition;

describe('style tools', { skip }, () => {
  let worker: GisWorkerClient;
  let handles: Handles;
  let project: ReturnType<typeof memoryProject>;
  const signal = new AbortController().signal;

  /** Validation, prepare and execute, as the dispatcher runs them. */
  async function run(id: string, raw: Record<string, unknown>) {
    const def = tool(id);
    const args = def.input.parse(raw);
    applyToolRules(def, args, handles.project, () => styleTools);
    const prepared = def.prepare ? await def.prepare(args, { handles, caller: 'model', signal }) : { args };
    const result = (await def.execute(prepared.args, { handles, caller: 'model', signal, progress: () => undefined })) as Record<
      string,
      unknown
    >;
    return { prepared, result };
  }
  async function refused(id: string, raw: Record<string, unknown>, message: RegExp, hint?: RegExp) {
    await assert.rejects(run(id, raw), (err: Error) => {
      assert.ok(err instanceof ToolFailure, `a ToolFailure, not ${err}`);
      assert.equal(err.code, 'invalid_params');
      assert.match(err.message, message);
      if (hint) assert.match(err.hint ?? '', hint);
      return true;
    });
  }

  before(async () => {
    worker = new GisWorkerClient(forkLauncher(path.join(ROOT, 'src-main', 'gis-worker', 'workerMain.ts'), ['--import', 'tsx']));
    project = memoryProject();
    handles = {
      project,
      gdal: createGdalHandle(worker),
      map: {} as Handles['map'],
      postgis: {} as Handles['postgis'],
      memory: {} as Handles['memory'],
    };
    for (const [name, file] of [
      ['nc', 'nc.gpkg'],
      ['countries', 'ne_110m_admin_0_countries.json'],
      ['bikes', 'cycle_hire_xy.csv'],
      ['elev', 'elev.tif'],
      ['landsat', 'L7_ETMs.tif'],
    ] as const) {
      const source = path.join(FIX, file);
      const info = (await worker.call('layers.describe', { source })) as LayerInfo;
      const ref = parseSource(source);
      project.addLayer({
        name,
        source: ref.path,
        sublayer: ref.sublayer,
        info,
        style: info.kind === 'raster' ? defaultRasterStyle() : defaultVectorStyle(0),
      });
    }
  });
  after(() => worker.dispose());

  const styleOf = (name: string) => LayerStyle.parse(project.getLayer(name)!.style);

  test('graduate: quantile classes computed in prepare, shown in the preview, saved with ramp colours', async () => {
    const { prepared, result } = await run('style.graduate', {
      layer: 'countries',
      field: 'POP_EST',
      method: 'quantile',
      classes: 5,
      ramp: 'blues',
    });
    assert.equal((prepared.args as { breaks: number[] }).breaks.length, 6);
    assert.match(String(prepared.preview?.classes), /\(3[56]\); .*\(3[56]\)$/);
    const style = styleOf('countries');
    assert.equal(style.type, 'graduated');
    if (style.type !== 'graduated') return;
    assert.equal(style.colours.length, 5);
    assert.equal(style.colours[0], '#f7fbff');
    assert.equal(style.colours[4], '#08306b');
    assert.deepEqual(style.breaks, (prepared.args as { breaks: number[] }).breaks);
    assert.equal((result.classes as unknown[]).length, 5);
  });

  test('labels are kept when the colouring changes, and can be removed', async () => {
    await run('style.labels', { layer: 'countries', field: 'NAME', size: 11 });
    await run('style.graduate', { layer: 'countries', field: 'GDP_MD_EST', method: 'jenks', classes: 4 });
    const style = styleOf('countries');
    assert.equal(style.type, 'graduated');
    assert.equal(style.type === 'graduated' && style.labels?.text, '{NAME}');
    assert.equal(style.type === 'graduated' && style.labels?.placement, 'point');
    await run('style.labels', { layer: 'countries', remove: true });
    assert.equal(styleOf('countries').type === 'graduated' && 'labels' in styleOf('countries'), false);
  });

  test('a missing or text field is refused before anything runs, with the fields that would do', async () => {
    await refused(
      'style.graduate',
      { layer: 'countries', field: 'pop_est' },
      /no field 'pop_est'\. Did you mean 'POP_EST'\?/,
      /Nearest numeric fields of 'countries': .*POP_EST \(real\)/,
    );
    await refused(
      'style.graduate',
      { layer: 'countries', field: 'NAME' },
      /holds string values; this tool needs numbers/,
      /For text values use style_categorize/,
    );
    await refused('style.labels', { layer: 'nc', text: '{NAME} ({FIPSNO2})' }, /no field 'FIPSNO2'/, /Fields of 'nc': AREA \(real\)/);
    await refused('style.graduate', { layer: 'elev', field: 'x' }, /is a raster/, /style_raster_pseudocolor/);
    await refused('style.graduate', { layer: 'nope', field: 'x' }, /no layer 'nope'/i);
    await refused('style.graduate', { layer: 'nc', field: 'BIR74', method: 'manual', breaks: [0, 10, 5] }, /ascending/);
  });

  test('categorize: values and counts from the data, most frequent first, the rest as other', async () => {
    const { prepared, result } = await run('style.categorize', { layer: 'countries', field: 'CONTINENT', max_categories: 4 });
    assert.equal(prepared.preview?.distinct_values, 8);
    const style = styleOf('countries');
    assert.equal(style.type, 'categorized');
    if (style.type !== 'categorized') return;
    assert.deepEqual(
      style.categories.map((c) => c.value),
      ['Africa', 'Asia', 'Europe', 'North America'],
    );
    assert.equal(new Set(style.categories.map((c) => c.colour)).size, 4);
    assert.equal(style.otherColour, '#bbbbbb');
    assert.equal((result.categories as { count: number }[])[0]!.count, 51);
  });

  test('rules: filters parsed and checked, features counted per rule', async () => {
    const { prepared, result } = await run('style.rules', {
      layer: 'countries',
      rules: [
        { filter: "CONTINENT = 'Africa' and POP_EST > 50000000", colour: '#aa0000' },
        { filter: 'POP_EST > 100000000', colour: '#0000aa', label: 'big' },
      ],
      else_colour: '#dddddd',
    });
    assert.match(String(prepared.preview?.['rule 1']), /→ #aa0000 \(6 features\)/);
    assert.equal((result.rules as { features: number }[])[0]!.features, 6);
    assert.equal(styleOf('countries').type, 'rules');
    await refused(
      'style.rules',
      { layer: 'countries', rules: [{ filter: 'POP_EST >> 5', colour: '#000000' }] },
      /rules\[0\]\.filter "POP_EST >> 5": expected a number/,
      /single quotes/,
    );
    await refused(
      'style.rules',
      { layer: 'countries', rules: [{ filter: 'GDP > 5', colour: '#000000' }] },
      /rules\[0\]\.filter: 'countries' has no field 'GDP'/,
    );
  });

  test('bivariate: terciles of both fields from the data, the standard palette', async () => {
    const { result } = await run('style.bivariate', { layer: 'nc', field_x: 'SID74', field_y: 'NWBIR74' });
    const style = styleOf('nc');
    assert.equal(style.type, 'bivariate');
    if (style.type !== 'bivariate') return;
    assert.deepEqual(style.palette, [...BIVARIATE_PALETTE]);
    assert.equal(style.breaksX[0], 0);
    assert.ok(style.breaksY[1] < style.breaksY[2]);
    assert.equal((result.field_x as { name: string }).name, 'SID74');
  });

  test('bivariate: both fields are classed over the features that have both values, not each over its own', async () => {
    // x is missing where y is high, y where x is high: classed separately, each field's terciles
    // would take in values of features the map never colours by class.
    const rows: [number | null, number | null][] = [
      ...[1, 2, 3, 4, 5, 6].map((x, i) => [x, (i + 1) * 10] as [number, number]),
      [7, null],
      [8, null],
      [9, null],
      [null, 100],
      [null, 200],
      [null, 300],
    ];
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'mapwright-bivariate-')), 'pairs.geojson');
    writeFileSync(
      file,
      JSON.stringify({
        type: 'FeatureCollection',
        features: rows.map(([x, y], i) => ({
          type: 'Feature',
          properties: { X: x, Y: y },
          geometry: {
            type: 'Polygon',
            coordinates: [
              [
                [i, 0],
                [i + 1, 0],
                [i + 1, 1],
                [i, 0],
              ],
            ],
          },
        })),
      }),
    );
    const info = (await worker.call('layers.describe', { source: file })) as LayerInfo;
    project.addLayer({ name: 'pairs', source: file, sublayer: null, info, style: defaultVectorStyle(0) });
    await run('style.bivariate', { layer: 'pairs', field_x: 'X', field_y: 'Y', null_colour: '#cccccc' });
    const style = styleOf('pairs');
    assert.ok(style.type === 'bivariate');
    const close = (got: readonly number[], want: number[]) =>
      got.forEach((v, i) => assert.ok(Math.abs(v - want[i]!) < 1e-9, `${got} vs ${want}`));
    // Joint: x over 1…6 and y over 10…60 (numpy's quantiles at 1/3 and 2/3).
    close(style.breaksX, [1, 8 / 3, 13 / 3, 6]);
    close(style.breaksY, [10, 80 / 3, 130 / 3, 60]);
    // Each field on its own gives other breaks: x over 1…9, y over 10…60 and 100…300.
    const alone = await worker.call('style.classify', { source: file, field: 'X', method: 'quantile', classes: 3 });
    close(alone.breaks, [1, 11 / 3, 19 / 3, 9]);
    const aloneY = await worker.call('style.classify', { source: file, field: 'Y', method: 'quantile', classes: 3 });
    assert.equal(aloneY.breaks[3], 300);
    const joint = await worker.call('style.classify', { source: file, field: 'Y', method: 'quantile', classes: 3, alsoNumeric: ['X'] });
    assert.deepEqual([joint.valid, joint.nulls, joint.counts], [6, 6, [2, 2, 2]]);
  });

  test('heatmap: points only, the weight maximum read from the data', async () => {
    const { prepared } = await run('style.heatmap', { layer: 'bikes', weight_field: 'nbikes', radius: 15 });
    assert.equal((prepared.args as { weight_max: number }).weight_max, 51);
    const style = styleOf('bikes');
    assert.equal(style.type === 'heatmap' && style.weightMax, 51);
    await refused('style.heatmap', { layer: 'nc' }, /this tool needs a point layer/, /centroids/);
    // A radius on the ground (issue 17): kept in metres; pixels stay 1–200, and say how to ask for metres.
    const { result } = await run('style.heatmap', { layer: 'bikes', radius: 300, radius_units: 'meters' });
    assert.deepEqual([result.radius, result.radius_units], [300, 'meters']);
    const metres = styleOf('bikes');
    assert.deepEqual(metres.type === 'heatmap' && [metres.radius, metres.radiusUnits], [300, 'meters']);
    await refused('style.heatmap', { layer: 'bikes', radius: 300 }, /radius: 300 pixels is outside 1–200/, /radius_units: 'meters'/);
    await run('style.heatmap', { layer: 'bikes', radius: 15 });
    const pixels = styleOf('bikes');
    assert.deepEqual(pixels.type === 'heatmap' && [pixels.radius, pixels.radiusUnits], [15, undefined]);
    await refused('style.labels', { layer: 'bikes', field: 'name' }, /drawn as a heatmap, which takes no labels/);
  });

  test('simple: colours, sizes and opacity; labels survive a change of colour', async () => {
    await run('style.set_simple', { layer: 'bikes', fill: '#123456', size: 3, opacity: 0.5 });
    await run('style.labels', { layer: 'bikes', field: 'name', min_zoom: 12 });
    await run('style.set_simple', { layer: 'bikes', fill: '#654321' });
    const style = styleOf('bikes');
    assert.deepEqual(style.type === 'simple' && [style.fill, style.pointRadius, style.opacity, style.labels?.minZoom], [
      '#654321',
      3,
      0.5,
      12,
    ]);
  });

  test('raster pseudocolour: the 2–98 % cut computed by GDAL when no range is given', async () => {
    const { prepared, result } = await run('style.raster_pseudocolor', { layer: 'elev', ramp: 'terrain' });
    const args = prepared.args as { min: number; max: number };
    assert.ok(args.min > 141 && args.min < 230, `min ${args.min}`);
    assert.ok(args.max > 450 && args.max < 547, `max ${args.max}`);
    assert.equal(prepared.preview?.range, '2–98 % cumulative cut');
    assert.deepEqual([result.min, result.max], [args.min, args.max]);
    await run('style.raster_pseudocolor', { layer: 'elev', ramp: 'spectral', min: 200, max: 500, invert: true });
    assert.deepEqual(styleOf('elev'), { type: 'pseudocolor', band: 1, ramp: 'spectral', invert: true, min: 200, max: 500 });
    await refused('style.raster_pseudocolor', { layer: 'elev', band: 2 }, /has 1 band; there is no band 2/);
    await refused('style.raster_pseudocolor', { layer: 'nc' }, /is a vector layer/, /style_graduate/);
  });

  test('raster hillshade and RGB', async () => {
    await run('style.raster_hillshade', { layer: 'elev', azimuth: 300 });
    assert.deepEqual(styleOf('elev'), { type: 'hillshade', band: 1, azimuth: 300, altitude: 45, zFactor: 1 });
    const { prepared } = await run('style.raster_rgb', { layer: 'landsat', red: 4, green: 3, blue: 2 });
    const ranges = (prepared.args as { ranges: [number, number][] }).ranges;
    assert.equal(ranges.length, 3);
    for (const [lo, hi] of ranges) assert.ok(lo >= 0 && hi <= 255 && hi > lo);
    const style = styleOf('landsat');
    assert.equal(style.type === 'rgb' && style.red.band, 4);
    await run('style.raster_rgb', {
      layer: 'landsat',
      red: 3,
      green: 2,
      blue: 1,
      stretch: 'given',
      ranges: [
        [0, 100],
        [0, 100],
        [0, 100],
      ],
    });
    assert.deepEqual(styleOf('landsat'), {
      type: 'rgb',
      red: { band: 3, min: 0, max: 100 },
      green: { band: 2, min: 0, max: 100 },
      blue: { band: 1, min: 0, max: 100 },
    });
    await refused('style.raster_rgb', { layer: 'landsat', red: 7 }, /has 6 bands; there is no band 7/);
    await refused('style.raster_rgb', { layer: 'landsat', stretch: 'given' }, /ranges: stretch given needs/);
    await run('style.raster_grey', { layer: 'landsat', band: 4 });
    assert.deepEqual(styleOf('landsat'), { type: 'grey', band: 4, min: null, max: null });
  });
});
