import { gdal } from './gdal.js';
import { releaseVsimem, vsimemPath } from './vsimem.js';

/** Grey + alpha bytes (one value per pixel each) to a PNG, through GDAL's PNG driver. */
export async function encodeGreyAlphaPng(grey: Uint8Array, alpha: Uint8Array, width: number, height: number): Promise<Buffer> {
  const mem = await gdal.drivers.get('MEM').createAsync('', width, height, 2, 'Byte');
  const out = vsimemPath('png');
  try {
    await mem.bands.get(1).pixels.writeAsync(0, 0, width, height, grey);
    const alphaBand = mem.bands.get(2);
    alphaBand.colorInterpretation = 'Alpha';
    await alphaBand.pixels.writeAsync(0, 0, width, height, alpha);
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
