/**
 * Raster styles in tile rendering: pseudocolour, hillshade and RGB tiles compared pixel by
 * pixel with GDAL's own tools (gdalwarp for the same tile, gdaldem hillshade for the shading),
 * the colours recomputed here from the ramp's stops.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { RAMPS } from '../../src-shared/style/colourRamps.js';
import type { RasterStyle } from '../../src-shared/style/styleModel.js';
import { gdal } from './gdal.js';
import { RasterCache } from './rasterCache.js';
import { renderRasterTile } from './renderRasterTile.js';
import { decodePng, fixture, gdalCli, makeTempDir, skipReason, tileAt, tileBox, type TileXyz, warpOntoBox } from './testSupport.js';

const tmp = makeTempDir();
const cache = new RasterCache(4);
after(async () => {
  await cache.clear();
  tmp.cleanup();
});

/** gdalwarp of `bands` onto a box at a size: values per band, plus the validity of each pixel. */
function warpReference(file: string, box: number[], width: number, height: number, bands: number[], name: string) {
  const out = path.join(tmp.dir, `${name}.tif`);
  // gdalwarp 3.6 cannot pick bands: a VRT of them first.
  const picked = path.join(tmp.dir, `${name}-bands.vrt`);
  gdalCli('gdal_translate', ['-q', '-of', 'VRT', ...bands.flatMap((b) => ['-b', String(b)]), file, picked]);
  warpOntoBox(picked, out, box, width, height, 'bilinear');
  const ds = gdal.open(out);
  const read = (b: number) => ds.bands.get(b).pixels.read(0, 0, width, height) as Float64Array;
  const values = bands.map((_, i) => read(i + 1));
  const alpha = read(bands.length + 1);
  ds.close();
  return { values, alpha, file: out };
}

/** The ramp's colour at t, interpolated between its stops (the ramp data, re-derived here). */
function rampColour(stops: readonly string[], t: number): number[] {
  const pos = Math.max(0, Math.min(1, t)) * (stops.length - 1);
  const i = Math.min(stops.length - 2, Math.floor(pos));
  const f = pos - i;
  const rgb = (h: string) => [1, 3, 5].map((k) => Number.parseInt(h.slice(k, k + 2), 16));
  const a = rgb(stops[i]!);
  const b = rgb(stops[i + 1]!);
  return a.map((v, k) => v + (b[k]! - v) * f);
}

async function render(source: string, tile: TileXyz, style: RasterStyle) {
  const png = await renderRasterTile(cache, { source, ...tile, style });
  assert.ok(png, 'the tile is drawn');
  return decodePng(png);
}

describe('raster styles in tiles', { skip: skipReason }, () => {
  const elev = fixture('elev.tif');

  test('pseudocolour: each pixel is the ramp colour of the warped value; nodata transparent', async () => {
    const tile = tileAt(6.1, 49.8, 10);
    const ref = warpReference(elev, tileBox(tile), 256, 256, [1], 'pc');
    const [min, max] = [250, 500];
    const img = await render(elev, tile, { type: 'pseudocolor', band: 1, ramp: 'terrain', invert: false, min, max });
    assert.equal(img.colorType, 6, 'RGBA');
    let agree = 0;
    let visible = 0;
    let alphaAgree = 0;
    for (let i = 0; i < 65536; i++) {
      const a = img.data[i * 4 + 3]!;
      const valid = ref.alpha[i]! > 0;
      if (a > 0 === valid) alphaAgree++;
      if (!valid || a === 0) continue;
      visible++;
      const t = Math.round(((ref.values[0]![i]! - min) / (max - min)) * 255) / 255;
      const want = rampColour(RAMPS.terrain, t);
      if (want.every((w, k) => Math.abs(w - img.data[i * 4 + k]!) <= 1.5)) agree++;
    }
    assert.ok(visible > 10000, `visible ${visible}`);
    assert.ok(alphaAgree / 65536 > 0.99, `alpha agreement ${alphaAgree / 65536}`);
    assert.ok(agree / visible > 0.99, `colour agreement ${agree / visible}`);
  });

  test('pseudocolour without min/max uses the 2–98 % cut, the same tile as with those numbers given', async () => {
    const tile = tileAt(6.1, 49.8, 9);
    const entryCut = await cache.use(elev, (e) => e.bandCut(1, 2, 98));
    assert.ok(entryCut && entryCut.min > 140 && entryCut.max < 548);
    const auto = await renderRasterTile(cache, {
      source: elev,
      ...tile,
      style: { type: 'pseudocolor', band: 1, ramp: 'viridis', invert: true, min: null, max: null },
    });
    const given = await renderRasterTile(cache, {
      source: elev,
      ...tile,
      style: { type: 'pseudocolor', band: 1, ramp: 'viridis', invert: true, min: entryCut.min, max: entryCut.max },
    });
    assert.ok(auto && given && Buffer.compare(auto, given) === 0);
    // Inverted viridis: the lowest values are yellow.
    const img = decodePng(auto);
    const ref = warpReference(elev, tileBox(tile), 256, 256, [1], 'pc-low');
    const low = ref.values[0]!.findIndex((v, i) => ref.alpha[i] === 255 && v < entryCut.min);
    assert.ok(low >= 0, 'some pixel lies below the 2 % cut');
    assert.deepEqual(Array.from(img.data.subarray(low * 4, low * 4 + 3)), [0xfd, 0xe7, 0x25]);
  });

  test('hillshade matches gdaldem hillshade of the same warped elevations, across two adjacent tiles (no seam)', async () => {
    for (const [az, alt, z] of [
      [315, 45, 1],
      [90, 30, 2],
    ] as const) {
      const a = tileAt(6.05, 49.75, 11);
      const b = { ...a, x: a.x + 1 };
      const boxA = tileBox(a);
      const res = (boxA[2] - boxA[0]) / 256;
      const box = [boxA[0] - res, boxA[1] - res, tileBox(b)[2] + res, boxA[3] + res];
      const ref = warpReference(elev, box, 514, 258, [1], `hs-${az}`);
      // gdaldem on the warped elevations; in Web Mercator a metre on the map is cos(lat) metres on the ground.
      const lat = (Math.atan(Math.sinh((boxA[1] + boxA[3]) / 2 / 6378137)) * 180) / Math.PI;
      const shaded = path.join(tmp.dir, `hs-${az}-gdaldem.tif`);
      gdalCli('gdaldem', [
        'hillshade',
        '-q',
        '-b',
        '1',
        '-az',
        String(az),
        '-alt',
        String(alt),
        '-z',
        String(z),
        '-s',
        String(Math.cos((lat * Math.PI) / 180)),
        ref.file,
        shaded,
      ]);
      const ds = gdal.open(shaded);
      const expected = ds.bands.get(1).pixels.read(0, 0, 514, 258) as Uint8Array;
      ds.close();
      const style: RasterStyle = { type: 'hillshade', band: 1, azimuth: az, altitude: alt, zFactor: z };
      const tiles = [await render(elev, a, style), await render(elev, b, style)];
      let compared = 0;
      let close = 0;
      let worst = 0;
      tiles.forEach((img, t) => {
        assert.equal(img.colorType, 4, 'grey + alpha');
        for (let r = 0; r < 256; r++) {
          for (let c = 0; c < 256; c++) {
            const centre = (r + 1) * 514 + (c + 1) + t * 256;
            // Only where the whole 3×3 window holds data: at the raster's edge gdaldem sees the
            // warp's fill value, while the tile substitutes the centre (tested separately).
            const window = [-515, -514, -513, -1, 0, 1, 513, 514, 515].every((d) => ref.alpha[centre + d] === 255);
            if (!window) continue;
            const want = expected[centre]!;
            const got = img.data[(r * 256 + c) * 2]!;
            compared++;
            worst = Math.max(worst, Math.abs(got - want));
            if (Math.abs(got - want) <= 1) close++;
          }
        }
      });
      assert.ok(compared > 60000, `compared ${compared} pixels`);
      assert.ok(close / compared > 0.99, `az ${az}: ${close / compared} within 1 of gdaldem (worst ${worst})`);
      assert.ok(worst <= 2, `az ${az}: worst difference ${worst}`);
    }
  });

  test('hillshade at the raster edge: shaded up to the last valid pixel, transparent beyond', async () => {
    // The north-west corner of elev.tif (5.7417°E, 50.1917°N) is nodata-rich: the shape of Luxembourg.
    const img = await render(elev, tileAt(6.0, 50.0, 9), { type: 'hillshade', band: 1, azimuth: 315, altitude: 45, zFactor: 1 });
    let transparent = 0;
    let shaded = 0;
    for (let i = 0; i < 65536; i++) {
      if (img.data[i * 2 + 1] === 0) transparent++;
      else if (img.data[i * 2]! >= 1) shaded++;
    }
    assert.ok(transparent > 1000 && shaded > 1000, `transparent ${transparent}, shaded ${shaded}`);
  });

  test('RGB composite: three bands each stretched on its own range, as gdalwarp reads them', async () => {
    const l7 = fixture('L7_ETMs.tif');
    const tile = tileAt(-34.9, -8.03, 13);
    const ranges: [number, number][] = [
      [30, 120],
      [40, 100],
      [55, 110],
    ];
    const bands = [4, 3, 2];
    const img = await render(l7, tile, {
      type: 'rgb',
      red: { band: 4, min: ranges[0]![0], max: ranges[0]![1] },
      green: { band: 3, min: ranges[1]![0], max: ranges[1]![1] },
      blue: { band: 2, min: ranges[2]![0], max: ranges[2]![1] },
    });
    const ref = warpReference(l7, tileBox(tile), 256, 256, bands, 'rgb');
    let visible = 0;
    let agree = 0;
    for (let i = 0; i < 65536; i++) {
      if (!(ref.alpha[i]! > 0) || img.data[i * 4 + 3] === 0) continue;
      visible++;
      const ok = [0, 1, 2].every((k) => {
        const [lo, hi] = ranges[k]!;
        const want = Math.max(0, Math.min(255, Math.round(((ref.values[k]![i]! - lo) / (hi - lo)) * 255)));
        return Math.abs(want - img.data[i * 4 + k]!) <= 1;
      });
      if (ok) agree++;
    }
    assert.ok(visible > 1000, `visible ${visible}`);
    assert.ok(agree / visible > 0.99, `agreement ${agree / visible}`);
  });

  test('a band beyond the raster is refused for every style', async () => {
    const l7 = fixture('L7_ETMs.tif');
    const tile = tileAt(-34.9, -8.03, 13);
    await assert.rejects(
      renderRasterTile(cache, {
        source: l7,
        ...tile,
        style: {
          type: 'rgb',
          red: { band: 7, min: null, max: null },
          green: { band: 1, min: null, max: null },
          blue: { band: 1, min: null, max: null },
        },
      }),
      /has 6 bands; there is no band 7/,
    );
    await assert.rejects(
      renderRasterTile(cache, {
        source: elev,
        z: 0,
        x: 0,
        y: 0,
        style: { type: 'hillshade', band: 2, azimuth: 315, altitude: 45, zFactor: 1 },
      }),
      /has 1 band; there is no band 2/,
    );
  });
});
