import type { RasterBand } from 'gdal-async';
import { gdal } from '../gdal.js';

/** Mask flag: every pixel is valid (no nodata, no mask, no alpha). */
const GMF_ALL_VALID = 0x01;

export interface BandBlock {
  /** The pixel values as doubles, whatever the band's type. */
  values: Float64Array;
  /** 1 where the pixel is valid: not nodata, not masked out (alpha, mask band), not NaN. */
  valid: Uint8Array;
}

/**
 * Reads windows of a band as doubles with their validity. Nodata is compared directly (cheaper
 * than reading the mask GDAL would generate from it); other masks (alpha bands, per-dataset
 * masks) are read from GDAL's mask band.
 */
export class BandReader {
  private readonly nodata: number | null;
  private readonly maskBand: RasterBand | null;

  constructor(private readonly band: RasterBand) {
    // A Float32 band holds its nodata rounded to float; compare with that rounding.
    const nodata = band.noDataValue;
    this.nodata = nodata !== null && band.dataType === gdal.GDT_Float32 ? Math.fround(nodata) : nodata;
    const allValid = (band.getMaskFlags() & GMF_ALL_VALID) !== 0;
    this.maskBand = allValid || this.nodata !== null ? null : band.getMaskBand();
  }

  async read(x: number, y: number, w: number, h: number): Promise<BandBlock> {
    const values = (await this.band.pixels.readAsync(x, y, w, h, undefined, { data_type: gdal.GDT_Float64 })) as Float64Array;
    const valid = this.maskBand
      ? ((await this.maskBand.pixels.readAsync(x, y, w, h)) as Uint8Array)
      : new Uint8Array(values.length).fill(1);
    const nodata = this.nodata;
    for (let i = 0; i < values.length; i++) {
      const v = values[i]!;
      if (v !== v || v === nodata)
        valid[i] = 0; // NaN, or nodata
      else if (valid[i] !== 0) valid[i] = 1; // alpha values 1..255 all mean "shown"
    }
    return { values, valid };
  }
}
