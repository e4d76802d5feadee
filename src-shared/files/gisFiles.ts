/**
 * File names the add-data dialog and the drop target treat as GIS data (issue #15). Pure, so
 * main (folder listing) and the renderer (which dropped file to load) agree.
 */

/** Extensions a person loads as a layer: the file `layers.load` is given. */
const MAIN_EXTENSIONS = [
  '.gpkg',
  '.shp',
  '.geojson',
  '.json',
  '.fgb',
  '.csv',
  '.tif',
  '.tiff',
  '.kml',
  '.kmz',
  '.gpx',
  '.gml',
  '.zip',
  '.sqlite',
  '.jp2',
  '.vrt',
  '.asc',
  '.img',
  '.nc',
  '.parquet',
  '.mbtiles',
  '.pmtiles',
] as const;

/** The order a drop of several files picks its main file in: a Shapefile's .shp before its .dbf. */
const PREFERENCE: readonly string[] = MAIN_EXTENSIONS;

function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot).toLowerCase() : '';
}

/** Whether the folder browser marks this file as loadable data. */
export function isGisFile(name: string): boolean {
  return (PREFERENCE as readonly string[]).includes(extensionOf(name));
}

/**
 * The one file of a drop to load: a Shapefile's four files come together and only the .shp is
 * loaded; otherwise the first file with a loadable extension. Null when none is loadable.
 */
export function mainFileOf(names: readonly string[]): string | null {
  let best: string | null = null;
  let bestRank = Infinity;
  for (const name of names) {
    const rank = PREFERENCE.indexOf(extensionOf(name));
    if (rank >= 0 && rank < bestRank) {
      best = name;
      bestRank = rank;
    }
  }
  return best;
}
