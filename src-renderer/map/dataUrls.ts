import type { LayerUrls } from '../../src-shared/style/compileLayerStyle.js';

export interface DataUrls extends LayerUrls {
  /** URL of a shipped asset, e.g. `basemap/countries.geojson`. */
  asset(file: string): string;
}

/**
 * Host data URLs from `app/info`: `dataBase` is a custom protocol under Electron and the web
 * host's origin otherwise; `dataQuery` carries the web host's token.
 */
export function dataUrls(dataBase: string, dataQuery: string): DataUrls {
  return {
    data: (path) => `${dataBase}${path}${dataQuery}`,
    asset: (file) => `${dataBase}assets/${file}${dataQuery}`,
  };
}
