/**
 * The terrain's elevation tiles decode back to the DEM's heights: at the centres of known DEM
 * pixels (GDAL's own values), and over whole tiles against gdalwarp's bilinear rendering of
 * the same box; nodata and the ground beyond the raster are 0 m.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { gdal } from './gdal.js';
import { RasterCache } from './rasterCache.js';
import { renderDemTile } from './renderDemTile.js';
import { decodeTerrarium, encodeTerrarium } from './style/terrarium.js';
import { decodePng, fixture, makeTempDir, skipReason, tileAt, tileBox, type TileXyz, warpOntoBox } from './testSupport.js';

const tmp = makeTempDir();
const cache = new RasterCache(4);
after(async () => {
  await cache.clear();
  tmp.cleanup();
});

const MERCATOR_HALF = 20037508.342789244;

/** A tile's 256×256 heights, decoded as MapLibre decodes Terrarium. */
async function heights(source: string, tile: TileXyz, ground?: number): Promise<Float64Array> {
  const png = await renderDemTile(cache, { source, band: 1, ...tile, ...(ground === undefined ? {} : { ground }) });
  const img = decodePng(png);
  assert.equal(img.width, 256);
  assert.equal(img.height, 256);
  assert.equal(img.channels, 4, 'RGBA');
  const out = new Float64Array(256 * 256);
  for (let i = 0; i < out.length; i++) {
    assert.equal(img.data[i * 4 + 3], 255, 'opaque');
    out[i] = decodeTerrarium(img.data[i * 4]!, img.data[i * 4 + 1]!, img.data[i * 4 + 2]!);
  }
  return out;
}

/** The tile pixel (row-major index) holding a lon/lat. */
function pixelOf(tile: TileXyz, lon: number, lat: number): number {
  const box = tileBox(tile);
  const mx = (lon / 180) * MERCATOR_HALF;
  const my = (Math.log(Math.tan(Math.PI / 4 + (lat * Math.PI) / 360)) / Math.PI) * MERCATOR_HALF;
  const res = (box[2] - box[0]) / 256;
  return Math.floor((box[3] - my) / res) * 256 + Math.floor((mx - box[0]) / res);
}

describe('Terrarium encoding', () => {
  test('round-trips heights to 1/256 m; invalid pixels and NaN are 0 m; out-of-range heights clamp', () => {
    const hs = [0, 1, -1, 141, 547.3, 8848.86, -10994, 0.00390625, 99999, -99999, Number.NaN, 300];
    const validity = hs.map((_, i) => (i === hs.length - 1 ? 0 : 255));
    const rgba = encodeTerrarium(hs, validity);
    const back = hs.map((_, i) => decodeTerrarium(rgba[i * 4]!, rgba[i * 4 + 1]!, rgba[i * 4 + 2]!));
    const expected = [0, 1, -1, 141, 547.3, 8848.86, -10994, 0.00390625, 32767 + 255 / 256, -32768, 0, 0];
    back.forEach((h, i) => assert.ok(Math.abs(h - expected[i]!) <= 1 / 512, `${hs[i]} → ${h}, expected ${expected[i]}`));
    assert.deepEqual([...rgba.subarray(0, 4)], [128, 0, 0, 255], 'sea level is (128, 0, 0)');
  });
});

describe('renderDemTile', { skip: skipReason }, () => {
  const elev = fixture('elev.tif');

  test('heights at known DEM pixels are GDAL’s values', async () => {
    const ds = gdal.open(elev);
    const [x0, rx, , y0, , ry] = ds.geoTransform! as [number, number, number, number, number, number];
    const band = ds.bands.get(1);
    const values = band.pixels.read(0, 0, ds.rasterSize.x, ds.rasterSize.y) as Int16Array;
    const nodata = band.noDataValue;
    ds.close();
    let checked = 0;
    for (const [col, row] of [
      [20, 20],
      [47, 45],
      [60, 70],
      [30, 60],
      [70, 30],
    ] as const) {
      const value = values[row * 95 + col]!;
      if (value === nodata) continue;
      // The pixel's centre; at z13 a tile pixel is ~12 m, the DEM's ~600 m: bilinear lands on the value.
      const lon = x0 + (col + 0.5) * rx;
      const lat = y0 + (row + 0.5) * ry;
      const tile = tileAt(lon, lat, 13);
      const h = (await heights(elev, tile))[pixelOf(tile, lon, lat)]!;
      assert.ok(Math.abs(h - value) <= 1, `pixel ${col},${row}: GDAL ${value} m, tile ${h} m`);
      checked++;
    }
    assert.ok(checked >= 4, `valid pixels checked: ${checked}`);
  });

  test('a whole tile across the DEM’s edge matches gdalwarp (bilinear), 0 m where it has no data', async () => {
    const tile = tileAt(5.75, 50.18, 10);
    const out = path.join(tmp.dir, 'ref.tif');
    warpOntoBox(elev, out, tileBox(tile), 256, 256, 'bilinear');
    const ref = gdal.open(out);
    const values = ref.bands.get(1).pixels.read(0, 0, 256, 256) as Float64Array;
    const alpha = ref.bands.get(2).pixels.read(0, 0, 256, 256) as Float64Array;
    ref.close();
    const got = await heights(elev, tile);
    let valid = 0;
    let outside = 0;
    for (let i = 0; i < got.length; i++) {
      const expected = alpha[i]! > 0 ? values[i]! : 0;
      if (alpha[i]! > 0) valid++;
      else outside++;
      assert.ok(Math.abs(got[i]! - expected) <= 1 / 256, `pixel ${i}: ${got[i]} vs ${expected}`);
    }
    assert.ok(valid > 1000 && outside > 1000, `both sides of the edge: ${valid} valid, ${outside} outside`);
  });

  test('a tile away from the DEM is flat at 0 m', async () => {
    const hs = await heights(elev, tileAt(-40, 10, 8));
    assert.ok(
      hs.every((h) => h === 0),
      'all 0 m',
    );
  });

  test('with a ground height (the route gives the DEM’s lowest), nodata and the world around lie there', async () => {
    const tile = tileAt(5.75, 50.18, 10);
    const plain = await heights(elev, tile);
    const grounded = await heights(elev, tile, 199);
    let lifted = 0;
    for (let i = 0; i < plain.length; i++) {
      if (plain[i] === grounded[i]) continue;
      assert.equal(grounded[i], 199, `pixel ${i}`);
      lifted++;
    }
    assert.ok(lifted > 1000, `pixels without data raised to the ground: ${lifted}`);
    assert.ok((await heights(elev, tileAt(-40, 10, 8), 199)).every((h) => h === 199));
  });
});
