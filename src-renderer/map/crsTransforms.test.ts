import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { describe, it } from 'node:test';
import { formatLonLat, formatProjected } from './coordinateFormat.js';
import { CrsTransforms, fromDefinition } from './crsTransforms.js';

const env = { ...process.env, GDAL_PAM_ENABLED: 'NO' };
/** GDAL's PROJ string for a code: what main's `crs/definition` answers (gdal SpatialReference.toProj4). */
const gdalProj4 = (epsg: number) => execFileSync('gdalsrsinfo', ['-o', 'proj4', `EPSG:${epsg}`], { encoding: 'utf8', env }).trim();
/** gdaltransform's answer for lon/lat points. */
function gdalTransform(epsg: number, points: [number, number][]): [number, number][] {
  const out = execFileSync('gdaltransform', ['-s_srs', 'EPSG:4326', '-t_srs', `EPSG:${epsg}`, '-output_xy'], {
    input: points.map((p) => p.join(' ')).join('\n') + '\n',
    encoding: 'utf8',
    env,
  });
  return out
    .trim()
    .split('\n')
    .map((line) => line.trim().split(/\s+/).map(Number) as [number, number]);
}

describe('the coordinate readout’s CRS path (proj4js with GDAL’s definitions)', () => {
  it('EPSG:32617 (UTM 17N) agrees with gdaltransform to a millimetre', () => {
    const points: [number, number][] = [
      [-79.25, 35.7],
      [-84.3, 35.0],
      [-75.5, 36.5],
      [-81, 0.5],
    ];
    const toUtm = fromDefinition(gdalProj4(32617));
    const expected = gdalTransform(32617, points);
    points.forEach((p, i) => {
      const [x, y] = toUtm(p);
      assert.ok(Math.abs(x - expected[i]![0]) < 0.001 && Math.abs(y - expected[i]![1]) < 0.001, `${p}: ${x},${y} vs ${expected[i]}`);
    });
  });

  it('EPSG:3857 and a US state plane in feet (EPSG:2264) agree with gdaltransform to a centimetre', () => {
    const p: [number, number] = [-79.25, 35.7];
    for (const epsg of [3857, 2264]) {
      const [x, y] = fromDefinition(gdalProj4(epsg))(p);
      const [[ex, ey]] = gdalTransform(epsg, [p]) as [[number, number]];
      assert.ok(Math.abs(x - ex) < 0.01 && Math.abs(y - ey) < 0.01, `EPSG:${epsg}: ${x},${y} vs ${ex},${ey}`);
    }
  });

  it('asks main once per code, not for WGS 84, and again after a failure', async () => {
    const asked: number[] = [];
    let fail = true;
    const transforms = new CrsTransforms(async (epsg) => {
      asked.push(epsg);
      if (epsg === 999 && fail) throw new Error('no such CRS');
      return epsg === 999 ? '+proj=longlat +datum=WGS84 +no_defs' : '+proj=utm +zone=17 +datum=WGS84 +units=m +no_defs';
    });
    assert.deepEqual((await transforms.get(4326))([1, 2]), [1, 2]);
    await Promise.all([transforms.get(32617), transforms.get(32617)]);
    await transforms.get(32617);
    await assert.rejects(transforms.get(999));
    fail = false;
    await transforms.get(999);
    assert.deepEqual(asked, [32617, 999, 999]);
  });

  it('formats degrees with hemisphere letters and projected coordinates with two decimals', () => {
    assert.equal(formatLonLat(-79.25, 35.7), '35.700000° N, 79.250000° W');
    assert.equal(formatLonLat(151.2093, -33.8688), '33.868800° S, 151.209300° E');
    assert.equal(formatProjected({ epsg: 32617, geographic: false }, 658326.4615, 3952086.104), 'EPSG:32617 658326.46, 3952086.10');
    assert.equal(formatProjected({ epsg: 4267, geographic: true }, -79.25, 35.7), 'EPSG:4267 -79.250000, 35.700000');
  });
});
