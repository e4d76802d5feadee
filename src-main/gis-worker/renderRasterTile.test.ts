import assert from 'node:assert/strict';
import { copyFileSync } from 'node:fs';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import type { GreyRasterStyle } from '../../src-shared/style/styleModel.js';
import { BadInputError } from './errors.js';
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

const grey = (band = 1, min: number | null = null, max: number | null = null): GreyRasterStyle => ({ type: 'grey', band, min, max });

/** gdalwarp's own rendering of the same tile, stretched the way the style says. */
function referenceTile(file: string, tile: TileXyz, resampling: string, min: number, max: number) {
  const out = path.join(tmp.dir, `ref-${tile.z}-${tile.x}-${tile.y}-${resampling}.tif`);
  warpOntoBox(file, out, tileBox(tile), 256, 256, resampling);
  const ds = gdal.open(out);
  const values = ds.bands.get(1).pixels.read(0, 0, 256, 256) as Float64Array;
  const alpha = ds.bands.get(2).pixels.read(0, 0, 256, 256) as Float64Array;
  ds.close();
  const expected = Array.from(values, (v, i) =>
    alpha[i]! > 0 ? Math.max(0, Math.min(255, Math.round(((v - min) / (max - min)) * 255))) : null,
  );
  return expected;
}

function compare(png: Uint8Array, expected: (number | null)[]): { alphaAgree: number; greyAgree: number; visible: number } {
  const img = decodePng(png);
  assert.equal(img.width, 256);
  assert.equal(img.height, 256);
  assert.equal(img.colorType, 4, 'grey + alpha PNG');
  let alphaAgree = 0;
  let greyAgree = 0;
  let visible = 0;
  for (let i = 0; i < 256 * 256; i++) {
    const g = img.data[i * 2]!;
    const a = img.data[i * 2 + 1]!;
    const e = expected[i]!;
    if (a > 0 === (e !== null)) alphaAgree++;
    if (a > 0 && e !== null) {
      visible++;
      if (Math.abs(g - e) <= 1) greyAgree++;
    }
  }
  return { alphaAgree: alphaAgree / 65536, greyAgree: greyAgree / Math.max(1, visible), visible };
}

describe('renderRasterTile', { skip: skipReason }, () => {
  const elev = fixture('elev.tif');
  let elevMin = 0;
  let elevMax = 0;

  test('a tile over elev.tif matches gdalwarp, stretched from the band min/max', async () => {
    const mm = JSON.parse(gdalCli('gdalinfo', ['-json', '-mm', elev]));
    elevMin = mm.bands[0].computedMin;
    elevMax = mm.bands[0].computedMax;
    const tile = tileAt(6.1, 49.8, 10);
    const png = await renderRasterTile(cache, { source: elev, ...tile, style: grey() });
    assert.ok(png, 'a tile over the raster is drawn');
    const r = compare(png, referenceTile(elev, tile, 'bilinear', elevMin, elevMax));
    assert.ok(r.visible > 1000, `visible pixels: ${r.visible}`);
    assert.ok(r.alphaAgree > 0.99, `alpha agreement ${r.alphaAgree}`);
    assert.ok(r.greyAgree > 0.99, `grey agreement ${r.greyAgree}`);
  });

  test('a tile on the raster edge is partly transparent', async () => {
    // The raster's north-west corner is at 5.7417°E, 50.1917°N.
    const png = await renderRasterTile(cache, { source: elev, ...tileAt(5.7417, 50.1917, 9), style: grey() });
    const img = decodePng(png!);
    let transparent = 0;
    let opaque = 0;
    for (let i = 1; i < img.data.length; i += 2) {
      if (img.data[i] === 0) transparent++;
      else if (img.data[i] === 255) opaque++;
    }
    assert.ok(transparent > 1000 && opaque > 1000, `transparent ${transparent}, opaque ${opaque}`);
  });

  test('an explicit style range clamps below min and above max', async () => {
    const tile = tileAt(6.1, 49.8, 10);
    const png = await renderRasterTile(cache, { source: elev, ...tile, style: grey(1, 300, 400) });
    const r = compare(png!, referenceTile(elev, tile, 'bilinear', 300, 400));
    assert.ok(r.greyAgree > 0.99, `grey agreement ${r.greyAgree}`);
  });

  test('far from the raster, or off the grid: null', async () => {
    assert.equal(await renderRasterTile(cache, { source: elev, ...tileAt(-120, -30, 8), style: grey() }), null);
    assert.equal(await renderRasterTile(cache, { source: elev, z: 2, x: 4, y: 0, style: grey() }), null);
  });

  test('palette raster (land cover) is resampled nearest: classes are never blended', async () => {
    const lc = fixture('lc.tif');
    const mm = JSON.parse(gdalCli('gdalinfo', ['-json', '-mm', lc]));
    const tile = tileAt(-66.2, 18.2, 9);
    const png = await renderRasterTile(cache, { source: lc, ...tile, style: grey() });
    const r = compare(png!, referenceTile(lc, tile, 'near', mm.bands[0].computedMin, mm.bands[0].computedMax));
    assert.ok(r.visible > 1000);
    assert.ok(r.greyAgree > 0.999, `grey agreement ${r.greyAgree}`);
  });

  test('multi-band UTM raster: any band, concurrently; a missing band is bad input', async () => {
    const l7 = fixture('L7_ETMs.tif');
    const base = tileAt(-34.87, -8.0, 13);
    const tiles = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        renderRasterTile(cache, {
          source: l7,
          z: 13,
          x: base.x + (i % 3) - 1,
          y: base.y + Math.floor(i / 3) - 1,
          style: grey(1 + (i % 6)),
        }),
      ),
    );
    assert.ok(tiles.filter((t) => t !== null).length >= 6);
    for (const t of tiles) if (t) assert.equal(decodePng(t).width, 256);
    await assert.rejects(renderRasterTile(cache, { source: l7, ...base, style: grey(7) }), (err: Error) => {
      assert.ok(err instanceof BadInputError);
      assert.equal(err.message, `${l7} has 6 bands; there is no band 7`);
      return true;
    });
  });

  test('unusable sources are bad input', async () => {
    await assert.rejects(renderRasterTile(cache, { source: fixture('truncated.tiff'), z: 0, x: 0, y: 0, style: grey() }), (err: Error) => {
      assert.ok(err instanceof BadInputError);
      assert.match(err.message, /no georeferencing/);
      return true;
    });
    await assert.rejects(renderRasterTile(cache, { source: fixture('nc.gpkg'), z: 0, x: 0, y: 0, style: grey() }), /is a vector layer/);
    await assert.rejects(
      renderRasterTile(cache, { source: path.join(tmp.dir, 'nope.tif'), z: 0, x: 0, y: 0, style: grey() }),
      /File not found/,
    );
  });

  test('open rasters are cached, and a file replaced on disk is reopened', async () => {
    const file = path.join(tmp.dir, 'swap.tif');
    copyFileSync(elev, file);
    const tile = tileAt(6.1, 49.8, 10);
    assert.ok(await renderRasterTile(cache, { source: file, ...tile, style: grey() }));
    assert.ok(cache.size <= 4, 'the LRU keeps to its capacity');
    // Same name, different raster (Brazil, not Luxembourg): the old tile must disappear.
    copyFileSync(fixture('L7_ETMs.tif'), file);
    assert.equal(await renderRasterTile(cache, { source: file, ...tile, style: grey() }), null);
  });
});
