import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import gdal from 'gdal-async';

/**
 * A layer's data as one hash, read with GDAL in the test process (an independent referee of
 * the worker): every feature's FID, geometry (WKB) and attributes by name. Field order is left
 * out on purpose: undoing a dropped column brings it back last.
 */
export function featureChecksum(path: string, layerName?: string): { hash: string; count: number; fields: string[] } {
  const ds = gdal.open(path);
  try {
    const layer = layerName ? ds.layers.get(layerName) : ds.layers.get(0);
    const hash = createHash('sha256');
    let count = 0;
    for (let f = layer.features.first(); f; f = layer.features.next()) {
      const attrs = f.fields.toObject() as Record<string, unknown>;
      const sorted = Object.keys(attrs)
        .sort()
        .map((k) => [k, attrs[k]]);
      hash.update(`${f.fid}|${f.getGeometry()?.toWKB().toString('hex') ?? ''}|${JSON.stringify(sorted)}\n`);
      count++;
    }
    return { hash: hash.digest('hex'), count, fields: layer.fields.getNames().sort() };
  } finally {
    ds.close();
  }
}

export function fileHash(path: string): string {
  return createHash('sha256').update(readFileSync(path)).digest('hex');
}

/** How many features of a GeoPackage layer match `where`, by ogrinfo (GDAL's command-line tool). */
export function ogrCount(source: string, where: string): number {
  const [path, layer] = source.split('|layername=');
  const name = layer ?? gdal.open(path!).layers.get(0).name;
  const out = execFileSync('ogrinfo', ['-ro', '-q', '-sql', `SELECT COUNT(*) AS n FROM "${name}" WHERE ${where}`, path!], {
    encoding: 'utf8',
  });
  return Number(/n \(Integer\) = (\d+)/.exec(out)?.[1] ?? NaN);
}
