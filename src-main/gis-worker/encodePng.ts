import type { Dataset } from 'gdal-async';
import { gdal } from './gdal.js';
import { releaseVsimem, vsimemPath } from './vsimem.js';

/** Grey + alpha bytes (one value per pixel each) to a PNG, through GDAL's PNG driver. */
export function encodeGreyAlphaPng(grey: Uint8Array, alpha: Uint8Array, width: number, height: number): Promise<Buffer> {
  return encodePng(width, height, 2, async (mem) => {
    await mem.bands.get(1).pixels.writeAsync(0, 0, width, height, grey);
    const alphaBand = mem.bands.get(2);
    alphaBand.colorInterpretation = 'Alpha';
    await alphaBand.pixels.writeAsync(0, 0, width, height, alpha);
  });
}

/** Interleaved RGBA bytes to a PNG (four bands through the MEM and PNG drivers). */
export function encodeRgbaPng(rgba: Uint8Array, width: number, height: number): Promise<Buffer> {
  return encodePng(width, height, 4, async (mem) => {
    const plane = new Uint8Array(width * height);
    for (let b = 0; b < 4; b++) {
      for (let i = 0; i < plane.length; i++) plane[i] = rgba[i * 4 + b]!;
      const band = mem.bands.get(b + 1);
      if (b === 3) band.colorInterpretation = 'Alpha';
      await band.pixels.writeAsync(0, 0, width, height, plane);
    }
  });
}

/** A Byte image of `bands` bands in GDAL's MEM driver, filled by `fill`, copied to a PNG in /vsimem/ and read back. */
async function encodePng(width: number, height: number, bands: number, fill: (mem: Dataset) => Promise<void>): Promise<Buffer> {
  const mem = await gdal.drivers.get('MEM').createAsync('', width, height, bands, 'Byte');
  const out = vsimemPath('png');
  try {
    await fill(mem);
    const png = await gdal.drivers.get('PNG').createCopyAsync(out, mem, ['ZLEVEL=6']);
    png.close();
    const bytes = releaseVsimem(out);
    if (!bytes) throw new Error('GDAL wrote no PNG');
    return bytes;
  } finally {
    releaseVsimem(out);
    mem.close();
  }
}
