import { readFile } from 'node:fs/promises';
import { extname, resolve, sep } from 'node:path';
import { styleFields, tileFields } from '../../src-shared/style/compileLabels.js';
import { colourOnly, defaultRasterStyle, isLabelledStyle, isRasterStyle } from '../../src-shared/style/styleModel.js';
import type { EgressGate } from '../net/egressGate.js';
import type { ProjectStore } from '../store/projectStore.js';
import type { GisWorkerClient } from '../worker-host/GisWorkerClient.js';
import { layerSource } from '../../src-shared/domain/source.js';
import { postgisConnectionOf } from '../../src-shared/domain/pgSource.js';
import type { PgTileService } from '../postgis/pgTileService.js';
import { layerReader } from './layerReads.js';
import { demTileResponse } from './demTileRoute.js';
import { rasterTileResponse } from './rasterTileRoute.js';
import { vectorTileResponse } from './vectorTileRoute.js';
import type { DataRequest, DataResponse } from './services.js';
import type { TileCache } from './tileCache.js';

/** A 1×1 transparent PNG: the answer for a tile outside a raster (MapLibre stretches it). */
export const EMPTY_TILE = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAACklEQVR4AWMAAQAABQABNtCI3QAAAABJRU5ErkJggg==',
  'base64',
);

const TYPES: Record<string, string> = {
  '.geojson': 'application/geo+json',
  '.json': 'application/json',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.pbf': 'application/x-protobuf',
};

/** The paths the data routes answer (tested in dataRoutes.test.ts); the serving code below uses them. */
export const DATA_ROUTES = {
  geojson: /^data\/layers\/([\w-]+)(?:\.r\d+)?\.geojson$/,
  labelPoints: /^data\/layers\/([\w-]+)\/labels-[0-9a-z]+\.geojson$/,
  vectorTile: /^tiles\/([\w-]+)\/v-[0-9a-z]+\/(\d+)\/(\d+)\/(\d+)\.pbf$/,
  demTile: /^tiles\/([\w-]+)\/dem(?:r\d+)?\/(\d+)\/(\d+)\/(\d+)\.png$/,
} as const;

/**
 * The data routes, shared by the web host (HTTP) and Electron (the `mapwright:` protocol):
 * `data/layers/ID.geojson`, `tiles/ID/Z/X/Y.png` and `assets/…`. Only ids of layers in
 * the project are served, so the renderer cannot name an arbitrary file.
 */
export function createDataRoutes(
  store: ProjectStore,
  worker: GisWorkerClient,
  assetsDir: string,
  egress: Pick<EgressGate, 'openFor'>,
  /** Rendered tiles by source identity, style and z/x/y (memory + disk); none: every tile is rendered. */
  tiles: TileCache | null = null,
  /** The online basemap's tiles (src-main/web/mapSourceBasemap.ts), answered only while its setting is on. */
  onlineBasemap: ((z: number, x: number, y: number) => Promise<DataResponse>) | null = null,
  /** Vector tiles of PostGIS layers, made by their server (issue 16); none: such layers get no tiles. */
  serverTiles: Pick<PgTileService, 'tileResponse'> | null = null,
) {
  const assetsRoot = resolve(assetsDir);
  // A network layer's own origin is open while it is read (layerReads.ts).
  const displaying = layerReader(egress);
  return async function serveData(path: string, request: DataRequest = {}): Promise<DataResponse> {
    try {
      // An edited layer's path names its data revision (`ID.r3.geojson`): it only busts caches,
      // the layer's current source (its working copy) is read.
      let m = DATA_ROUTES.geojson.exec(path);
      if (m) {
        const layer = store.layers.get(m[1]!);
        if (!layer || layer.kind !== 'vector') return notFound(path);
        const source = layerSource(layer);
        const body = await displaying(layer, () => worker.call('display.geojson', { source }));
        return { status: 200, contentType: 'application/geo+json', body };
      }
      // Polygon label points (src-shared/style/compileLabels.ts): the fields come from the saved style;
      // the `labels-HASH` segment (fields' hash, then an edited layer's revision) only busts caches.
      m = DATA_ROUTES.labelPoints.exec(path);
      if (m) {
        const layer = store.layers.get(m[1]!);
        if (!layer || layer.kind !== 'vector' || !isLabelledStyle(layer.style)) return notFound(path);
        const source = layerSource(layer);
        const fields = styleFields(layer.style);
        const body = await displaying(layer, () => worker.call('style.label_points', { source, fields }));
        return { status: 200, contentType: 'application/geo+json', body };
      }
      // Vector tiles of a large layer (src-shared/style/vectorTiles.ts). The `v-HASH/` segment
      // (the hash of the fields the style reads, then an edited layer's `rN` data revision) only
      // busts caches; the current style's fields travel, from the current source.
      m = DATA_ROUTES.vectorTile.exec(path);
      if (m) {
        const layer = store.layers.get(m[1]!);
        if (!layer || layer.kind !== 'vector') return notFound(path);
        const source = layerSource(layer);
        const [z, x, y] = [+m[2]!, +m[3]!, +m[4]!];
        const fields = tileFields(layer.style);
        if (postgisConnectionOf(layer.source)) return serverTiles ? await serverTiles.tileResponse(layer, fields, z, x, y) : notFound(path);
        const render = () => displaying(layer, () => worker.call('display.vector_tile', { source, z, x, y, fields }));
        const revision = layer.editing?.revision ?? layer.dataRevision ?? null;
        return await vectorTileResponse({ source: layer.source, revision, fields, z, x, y }, request, tiles, render);
      }
      // The online basemap (Settings; off by default): fetched by main, never by the page.
      m = /^tiles\/basemap-online\/(\d+)\/(\d+)\/(\d+)\.png$/.exec(path);
      if (m) return onlineBasemap ? await onlineBasemap(+m[1]!, +m[2]!, +m[3]!) : notFound(path);
      // A DEM's elevations for MapLibre's terrain (src-shared/style/compileTerrain.ts), band 1.
      m = DATA_ROUTES.demTile.exec(path);
      if (m) {
        const layer = store.layers.get(m[1]!);
        if (!layer || layer.kind !== 'raster') return notFound(path);
        // The ground around the DEM at its lowest height: its edge does not rise from sea level as a wall.
        const ground = Math.floor(layer.info.bands[0]?.min ?? 0);
        const q = { source: layerSource(layer), band: 1, ground, z: +m[2]!, x: +m[3]!, y: +m[4]! };
        return await demTileResponse(q, request, tiles, () => displaying(layer, () => worker.call('display.dem_tile', q)));
      }
      // An optional `s-HASH/` segment (the style's hash) only busts caches; the current style is used.
      m = /^tiles\/([\w-]+)\/(?:s-[0-9a-z]+\/)?(\d+)\/(\d+)\/(\d+)\.png$/.exec(path);
      if (m) {
        const layer = store.layers.get(m[1]!);
        if (!layer || layer.kind !== 'raster') return notFound(path);
        // The terrain settings change nothing in the colour tiles: not part of their cache key.
        const style = colourOnly(isRasterStyle(layer.style) ? layer.style : defaultRasterStyle());
        const [z, x, y] = [+m[2]!, +m[3]!, +m[4]!];
        const render = () => displaying(layer, () => worker.call('display.raster_tile', { source: layerSource(layer), z, x, y, style }));
        return await rasterTileResponse({ source: layerSource(layer), style, z, x, y }, request, tiles, render, EMPTY_TILE);
      }
      m = /^assets\/(.+)$/.exec(path);
      if (m) {
        const file = resolve(assetsRoot, m[1]!);
        if (!file.startsWith(assetsRoot + sep)) return notFound(path);
        const body = await readFile(file);
        return { status: 200, contentType: TYPES[extname(file)] ?? 'application/octet-stream', body };
      }
      return notFound(path);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') return notFound(path);
      // The message may name files; the renderer gets only that the read failed.
      console.error(`[data] ${path}: ${err instanceof Error ? err.message : String(err)}`);
      return { status: 500, contentType: 'text/plain', body: 'The data could not be read.' };
    }
  };
}

function notFound(path: string): DataResponse {
  return { status: 404, contentType: 'text/plain', body: `Not found: ${path}` };
}
