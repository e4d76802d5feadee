import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import * as geodesicModule from 'geographiclib-geodesic';
import { type SharedApp, useAppSession } from '../support/appSession.js';
import { MeasureDriver } from '../support/measureDriver.js';
import { vincentyDistance } from '../support/vincenty.js';
import { gisFixtures } from '../support/webHost.js';

type LonLat = [number, number];

const NC = join(gisFixtures, 'nc.gpkg');
const haveFixtures = existsSync(NC);
if (!haveFixtures) console.log(`# skipping measure e2e: ${NC} is absent`);
/** North Carolina, [west, south, east, north]. */
const NC_BOUNDS: [number, number, number, number] = [-84.4, 33.8, -75.4, 36.6];
/** Well inside one county (Chatham), away from its borders. */
const IN_A_COUNTY: LonLat = [-79.25, 35.7];

// CommonJS: Node's ESM loader exposes its exports under `default` only.
const geodesic = (geodesicModule as unknown as { default?: typeof geodesicModule }).default ?? geodesicModule;
const { Geodesic, PolygonArea } = geodesic;

const env = { ...process.env, GDAL_PAM_ENABLED: 'NO' };
function gdalTransform(from: string, to: string, points: readonly [number, number][]): [number, number][] {
  const out = execFileSync('gdaltransform', ['-s_srs', from, '-t_srs', to, '-output_xy'], {
    input: points.map((p) => p.join(' ')).join('\n') + '\n',
    encoding: 'utf8',
    env,
  });
  return out
    .trim()
    .split('\n')
    .map((l) => l.trim().split(/\s+/).map(Number) as [number, number]);
}
/** GDAL's attributes of one feature, as ogrinfo prints them (`NAME (String) = Chatham`). */
function gdalAttributes(file: string, layer: string, fid: number): Record<string, { type: string; value: string }> {
  const text = execFileSync('ogrinfo', ['-ro', '-q', '-fid', String(fid), file, layer], { encoding: 'utf8', env });
  return Object.fromEntries([...text.matchAll(/^ {2}(\w+) \((\w+)\) = (.*)$/gm)].map((m) => [m[1]!, { type: m[2]!, value: m[3]!.trim() }]));
}
const geodesicLength = (a: LonLat, b: LonLat) => Geodesic.WGS84.Inverse(a[1], a[0], b[1], b[0]).s12!;
function geodesicArea(points: readonly LonLat[]): number {
  const polygon = new PolygonArea.PolygonArea(Geodesic.WGS84, false);
  for (const [lon, lat] of points) polygon.AddPoint(lat, lon);
  return Math.abs(polygon.Compute(false, true).area!);
}
const relative = (a: number, b: number) => Math.abs(a - b) / Math.abs(b);

describe('measure, coordinate readout and identify against GDAL (issue #15)', { skip: !haveFixtures }, () => {
  const session = useAppSession({ homePrefix: 'mapwright-e2e-measure-' });
  let { page, app, model, table } = {} as SharedApp;
  let measure: MeasureDriver;
  const dir = mkdtempSync(join(tmpdir(), 'mapwright-measure-data-'));
  /** The counties reprojected to UTM 17N: loaded first, it is the bottom layer, so the project CRS. */
  const UTM = join(dir, 'nc_utm.gpkg');

  const load = async (path: string, name: string) => {
    model.reset();
    model.script([{ toolCalls: [{ name: 'layers_load', arguments: { path } }] }, { text: `Loaded ${name}.` }]);
    await app.askAgent(`load ${name}`);
    await app.approvePending();
    await app.waitForLayer(name);
    await app.waitForMessage('assistant', new RegExp(`Loaded ${name}`));
  };

  before(async () => {
    execFileSync('ogr2ogr', ['-t_srs', 'EPSG:32617', '-preserve_fid', '-nln', 'nc_utm', UTM, NC], { env });
    ({ page, app, model, table } = await session.openApp());
    measure = new MeasureDriver(page);
    await load(UTM, 'nc_utm');
    await load(NC, 'nc');
    await app.fitMap(NC_BOUNDS);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('the readout shows the hovered point in degrees, and in the project CRS (EPSG:32617) as gdaltransform does', async () => {
    await app.setMapView({ center: IN_A_COUNTY, zoom: 13 });
    const { readout, at } = await measure.hover(IN_A_COUNTY);
    assert.equal(readout.crs, 'EPSG:32617', 'the bottom layer’s CRS');
    assert.ok(Math.abs(readout.lon! - IN_A_COUNTY[0]) < 1e-4 && Math.abs(readout.lat! - IN_A_COUNTY[1]) < 1e-4, JSON.stringify(readout));
    const [[x, y]] = gdalTransform('EPSG:4326', 'EPSG:32617', [at]) as [[number, number]];
    assert.ok(
      Math.abs(readout.x! - x) < 1 && Math.abs(readout.y! - y) < 1,
      `readout ${readout.x}, ${readout.y} vs gdaltransform ${x}, ${y}`,
    );
    assert.match(readout.text, /^35\.\d{6}° N, 79\.\d{6}° W · EPSG:32617 \d+\.\d\d, \d+\.\d\d$/);
    await page.screenshot({ path: '/tmp/measure-readout.png' });
    await app.fitMap(NC_BOUNDS);
  });

  it('measures a distance: GeographicLib’s and Vincenty’s value for the clicked points, without identifying', async () => {
    await measure.setActive(true);
    await measure.setMode('distance');
    const wanted: LonLat[] = [
      [-82.5, 35.6],
      [-78.6, 35.8],
      [-77.0, 34.7],
    ];
    const clicked = await measure.measure(wanted);
    const { metres, text } = await measure.result();
    const expected = geodesicLength(clicked[0]!, clicked[1]!) + geodesicLength(clicked[1]!, clicked[2]!);
    const vincenty = vincentyDistance(clicked[0]!, clicked[1]!) + vincentyDistance(clicked[1]!, clicked[2]!);
    const asked = geodesicLength(wanted[0]!, wanted[1]!) + geodesicLength(wanted[1]!, wanted[2]!);
    console.log(`# distance ${metres} m (${text}); GeographicLib ${expected}; Vincenty ${vincenty}; as asked ${asked}`);
    assert.ok(relative(metres!, expected) < 1e-9, 'the clicked points’ geodesic length');
    assert.ok(relative(metres!, vincenty) < 0.005, 'Vincenty within 0.5 %');
    assert.ok(relative(metres!, asked) < 0.005, 'the positions asked for, within 0.5 %');
    assert.match(text, /^\d{3}\.\d km$/);
    assert.equal(await page.getByTestId('identify-popup').count(), 0, 'measuring clicks do not identify');
    assert.equal((await app.mapView()).zoom > 0, true);
    await page.mouse.move(10, 10);
    await page.screenshot({ path: '/tmp/measure-distance.png' });
  });

  it('measures the area of a 20 km square drawn in UTM (4 × 10⁸ m² within 0.5 %)', async () => {
    await measure.setMode('area');
    const [e, n] = [640_000, 3_940_000];
    const corners = gdalTransform('EPSG:32617', 'EPSG:4326', [
      [e, n],
      [e + 20_000, n],
      [e + 20_000, n + 20_000],
      [e, n + 20_000],
    ]) as LonLat[];
    await app.fitMap([corners[0]![0] - 0.1, corners[0]![1] - 0.1, corners[2]![0] + 0.1, corners[2]![1] + 0.1]);
    const clicked = await measure.measure(corners, 'enter');
    const { squareMetres, metres, text } = await measure.result();
    console.log(`# area ${squareMetres} m² (${text}); GeographicLib ${geodesicArea(clicked)}`);
    assert.equal(metres, null);
    assert.ok(relative(squareMetres!, geodesicArea(clicked)) < 1e-9, 'the clicked corners’ geodesic area');
    assert.ok(relative(squareMetres!, 4e8) < 0.005, 'a 20 km square');
    assert.match(text, /^\d{3}\.\d km² · perimeter \d\d\.\d\d km$/);
    await page.mouse.move(10, 10);
    await page.screenshot({ path: '/tmp/measure-area.png' });
    await measure.clear();
    assert.equal((await measure.result()).squareMetres, 0);
  });

  it('identify lists every layer under the click, topmost first, with GDAL’s values', async () => {
    await measure.setActive(false);
    await app.fitMap(NC_BOUNDS);
    const sections = await table.identifyAt(...IN_A_COUNTY);
    assert.deepEqual(
      sections.map((s) => s.layerName),
      ['nc', 'nc_utm'],
      'the layer loaded last is on top',
    );
    const checks: [string, string][] = [
      [NC, 'nc.gpkg'],
      [UTM, 'nc_utm'],
    ];
    for (const [i, [file, layer]] of checks.entries()) {
      const feature = sections[i]!.features[0]!;
      const gdal = gdalAttributes(file, layer, feature.fid);
      assert.deepEqual(Object.keys(feature.attributes).sort(), Object.keys(gdal).sort(), 'the same fields');
      for (const [field, { type, value }] of Object.entries(gdal)) {
        const shown = feature.attributes[field]!;
        if (/Integer|Real/.test(type)) assert.equal(Number(shown), Number(value), `${layer} ${field}`);
        else assert.equal(shown, value, `${layer} ${field}`);
      }
    }
    assert.equal(sections[0]!.features[0]!.attributes.NAME, 'Chatham');
    await page.screenshot({ path: '/tmp/measure-identify.png' });
  });
});
