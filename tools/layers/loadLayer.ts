import { z } from 'zod';
import type { CallResult } from '../../src-shared/worker/workerCalls.js';
import type { LayerInfo } from '../../src-shared/domain/layer.js';
import { defaultLayerName, formatSource, parseSource } from '../../src-shared/domain/source.js';
import type { Handles } from '../../src-shared/tools/handles.js';
import { ToolFailure } from '../../src-shared/tools/toolResult.js';
import { sourceParam } from '../../src-shared/security/paramCapabilities.js';
import { defineTool } from '../../src-shared/tools/toolSdk.js';
import { postgisConnectionOf } from '../../src-shared/domain/pgSource.js';
import { isTiledLayer, serverTilesNote, tiledLayerNote } from '../../src-shared/style/vectorTiles.js';
import { layerSummary } from './findLayer.js';

type Sublayer = CallResult<'layers.list_sublayers'>['layers'][number];

interface LoadContext {
  handles: Pick<Handles, 'project' | 'gdal'>;
  signal: AbortSignal;
  progress(fraction: number, message: string): void;
}

/**
 * A layer is made ready for display before it is added, so its first tiles do not wait: a
 * tiled vector source that is not an indexed GeoPackage is copied once into the cache with a
 * spatial index, a large raster gets overviews there (progress on the card). Returns what the
 * model is told about how it is drawn.
 */
async function prepareDisplay(ctx: LoadContext, source: string, info: LayerInfo): Promise<string | null> {
  if (info.kind === 'raster') {
    // A large raster without overviews gets them in the cache now (the worker decides; small
    // ones cost one look), so its first zoomed-out tiles do not resample every pixel.
    const r = await ctx.handles.gdal.call('display.prepare_raster', { source }, { signal: ctx.signal, progress: ctx.progress });
    return r.overviews
      ? `Overviews (${r.overviews} levels) were built in the app's cache for fast zoomed-out display; the file itself is unchanged.`
      : null;
  }
  if (!isTiledLayer({ kind: info.kind, info })) return null;
  // A PostGIS table is drawn from tiles its server makes with the table's spatial index (issue 16): nothing is copied.
  if (postgisConnectionOf(source)) return serverTilesNote(info.featureCount);
  await ctx.handles.gdal.call('display.prepare_vector', { source }, { signal: ctx.signal, progress: ctx.progress });
  return tiledLayerNote(info.featureCount);
}

async function add(ctx: LoadContext, path: string, sublayer: string | null, info: LayerInfo, name: string) {
  const { handles } = ctx;
  const display = await prepareDisplay(ctx, formatSource({ path, sublayer }), info);
  const layer = handles.project.addLayer({
    // A wish: the project makes it unique.
    name,
    source: path,
    sublayer,
    info,
    // The default style of its kind; a table keeps a vector style so it can gain geometry by a join later.
  });
  return { ...layerSummary(layer), ...(display ? { display } : {}) };
}

/** Raster tables and layers with something in them; empty GPX waypoint/route layers are skipped. */
function loadable(s: Sublayer): boolean {
  return s.kind === 'raster' || (s.feature_count ?? 1) !== 0;
}

/** The line the person reads after `layers.load` loaded one layer: its name, kind, size and CRS. */
function loadedNotice(data: unknown): string | null {
  const layer = (data as { layer?: { name?: string; kind?: string; feature_count?: number | null; crs?: string | null } } | null)?.layer;
  if (!layer?.name) return null;
  const count = layer.kind === 'vector' && layer.feature_count != null ? `, ${layer.feature_count.toLocaleString('en')} features` : '';
  return `Loaded layer ${layer.name} (${layer.kind}${count}${layer.crs ? `, ${layer.crs}` : ''})`;
}

export const loadLayer = defineTool({
  id: 'layers.load',
  version: '1.3.0',
  group: 'layers',
  icon: 'layers',
  title: 'Load layer',
  description:
    'Adds a GIS file to the project as a map layer. Vector: GeoJSON, Shapefile, GeoPackage, FlatGeobuf, KML, GPX, ' +
    'SpatiaLite, CSV with lon/lat columns. Raster: GeoTIFF, GeoPackage raster and other GDAL rasters. Tables ' +
    'without geometry (CSV, XLSX, ODS — including statistics CSVs with title lines above the header or notes ' +
    'below, which are skipped) load as kind "table": not drawn, but queryable and joinable. For a file with ' +
    "several layers pick one with 'path|layername=NAME'; without it the first layer that has features is loaded " +
    'and the others are listed (all_sublayers: true loads every non-empty one). The file is referenced, not copied. ' +
    'Returns the new layer (id, name, kind, CRS, geometry type, feature count, extent; for large layers `display` says ' +
    'how the map simplifies them) and other_sublayers; use its ' +
    'id with layers_zoom_to, layers_set_opacity or inspect_layer_info.',
  input: z.object({
    path: sourceParam(
      "Absolute path of the file, optionally with '|layername=NAME' for one layer of a multi-layer file; an http(s) URL or /vsicurl/ path reaches the network and is asked for every time",
    ),
    name: z
      .string()
      .min(1)
      .max(120)
      .optional()
      .describe('Name shown in the layer list; defaults to the file or sublayer name (made unique)'),
    all_sublayers: z.boolean().default(false).describe('Load every non-empty layer of a multi-layer file, each under its own name'),
  }),
  safety: 'write',
  userVisible: true,
  exec: 'main',
  handles: ['project', 'gdal'],
  summary: (a) => `Load ${a.path}${a.all_sublayers ? ' (all layers)' : ''}${a.name ? ` as '${a.name}'` : ''}`,
  notice: loadedNotice,
  async execute(args, { handles, signal, progress }) {
    const ctx: LoadContext = { handles, signal, progress };
    const ref = parseSource(args.path);
    const first = await handles.gdal.call('layers.describe', { source: args.path });
    if (ref.sublayer) {
      const layer = await add(ctx, ref.path, ref.sublayer, first, args.name ?? defaultLayerName(ref));
      return { layer, other_sublayers: first.sublayers.filter((s) => s !== ref.sublayer) };
    }
    if (first.sublayers.length <= 1 && !args.all_sublayers) {
      const layer = await add(ctx, ref.path, null, first, args.name ?? defaultLayerName(ref));
      return { layer, other_sublayers: [] };
    }

    const sublayers = (await handles.gdal.call('layers.list_sublayers', { path: ref.path })).layers;
    const candidates = sublayers.filter(loadable);
    if (candidates.length === 0) throw new ToolFailure('handler_error', `Every layer of ${ref.path} is empty.`, false);

    if (args.all_sublayers) {
      const loaded = [];
      for (const s of candidates) {
        const source = formatSource({ path: ref.path, sublayer: s.name });
        loaded.push(await add(ctx, ref.path, s.name, await handles.gdal.call('layers.describe', { source }), s.name));
      }
      const skipped = sublayers.filter((s) => !loadable(s)).map((s) => s.name);
      return { layers: loaded, ...(skipped.length ? { skipped_empty: skipped } : {}) };
    }

    const chosen = candidates[0]!;
    const info =
      chosen.name === first.sublayers[0] && first.kind !== 'raster'
        ? first
        : await handles.gdal.call('layers.describe', { source: formatSource({ path: ref.path, sublayer: chosen.name }) });
    const layer = await add(ctx, ref.path, chosen.name, info, args.name ?? chosen.name);
    return {
      layer,
      other_sublayers: sublayers
        .filter((s) => s.name !== chosen.name)
        .map((s) => ({ name: s.name, kind: s.kind, feature_count: s.feature_count })),
      note:
        `${ref.path} has ${sublayers.length} layers; loaded '${chosen.name}', the first with features. ` +
        `Load another with layers_load {"path": "${ref.path}|layername=NAME"}, or all of them with all_sublayers: true.`,
    };
  },
});
