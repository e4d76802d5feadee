import type { Annotation, AnnotationGeometry } from '../domain/annotation.js';
import type { BBox, Layer, LayerInfo } from '../domain/layer.js';
import type { MapSelection } from '../domain/mapSelection.js';
import type { Memory, MemoryScope } from '../domain/memory.js';
import type { PgTableName } from '../domain/pgSource.js';
import type { PrintSpec } from '../domain/printLayout.js';
import type { LayerStyle } from '../style/styleModel.js';
import type { CallParams, CallResult, WorkerCallName } from '../worker/workerCalls.js';

/**
 * The capabilities a tool can ask for. A tool declares the handles it needs and receives
 * only those in its context, so it can be tested alone and cannot reach anything else.
 */
export interface ProjectHandle {
  listLayers(): Layer[];
  getLayer(idOrName: string): Layer | undefined;
  /**
   * Adds a layer on top. `name` is a wish: a name the project already has gets `_2`, `_3`…
   * (see `freeLayerName`). Without `style` the layer gets the default of its kind (a table
   * keeps a vector style, so it can gain geometry by a join later).
   */
  addLayer(input: { name: string; source: string; sublayer: string | null; info: LayerInfo; style?: LayerStyle }): Layer;
  removeLayer(id: string): void;
  updateLayer(id: string, patch: Partial<Pick<Layer, 'name' | 'visible' | 'opacity' | 'style'>>): Layer;
  moveLayer(id: string, toOrder: number): Layer[];
  /** Points a layer at another file (its source moved): name, style and order stay; editing ends. */
  relocateLayer(id: string, data: { source: string; sublayer: string | null; info: LayerInfo }): Layer;
  /** A new, unused file path in the project's outputs folder (never a source file). */
  outputPath(baseName: string, extension: 'gpkg' | 'tif' | 'png' | 'pdf'): string;
  /** Working copies, backups and the record of data changes (issue #14). */
  editing: EditingHandle;
  /** The annotation layer (issue #14); every change is announced to the map. */
  listAnnotations(): Annotation[];
  addAnnotation(input: Pick<Annotation, 'kind' | 'text' | 'geometry' | 'color' | 'createdBy'>): Annotation;
  moveAnnotation(id: string, geometry: AnnotationGeometry): Annotation;
  removeAnnotation(id: string): void;
}

/**
 * Editing a layer through its working copy (issue #14): where copies and backups go, and the
 * project's record of them. Every data change is recorded under the call's undo snapshot.
 */
export interface EditingHandle {
  /** A new, unused path for a layer's working copy: `<outputs>/edits/NAME.gpkg`. */
  workingCopyPath(layerName: string): string;
  /** Where write-back keeps the originals' backups: `<outputs>/backups`. */
  backupDir(): string;
  /** Points the layer at its new working copy, remembering the original it was copied from. */
  startEditing(layerId: string, copy: { source: string; sublayer: string; info: LayerInfo }): Layer;
  /** After the working copy changed under undo snapshot `changeId`: its new info, a new revision, the change kept for undo. */
  dataChanged(layerId: string, info: LayerInfo, changeId: number): Layer;
}

/** A layer name not yet taken: SQL and lookups by name need names to be unique. */
export function freeLayerName(taken: ReadonlySet<string>, wanted: string): string {
  if (!taken.has(wanted)) return wanted;
  for (let n = 2; ; n++) if (!taken.has(`${wanted}_${n}`)) return `${wanted}_${n}`;
}

/** GDAL, reached only through the GIS worker process. */
export interface GdalHandle {
  /**
   * Calls one function of the worker contract (src-shared/worker/workerCalls.ts), typed by it;
   * the result is checked on arrival. Bad input comes back as a ToolFailure with a readable
   * message; `hint` replaces the generic "check the path" advice with one that fits the tool.
   * A call that writes a file (`processing.run`) removes it when it fails or is stopped.
   */
  call<F extends WorkerCallName>(
    fn: F,
    args: CallParams<F>,
    opts?: { signal?: AbortSignal; progress?(fraction: number, message: string): void; hint?: string },
  ): Promise<CallResult<F>>;
}

export interface MapViewState {
  center: [number, number];
  zoom: number;
  bounds: BBox;
  bearing: number;
  pitch: number;
}

/** The map in the renderer: view changes, and questions only the renderer can answer. */
export interface MapHandle {
  /**
   * Fits the map to `bbox` and resolves once the renderer reports the view settled (the move
   * ended and the map is idle), with that view; null when no window answered within a few
   * seconds (headless, no map yet). Fails only when stopped.
   */
  fitBounds(bbox: BBox, signal: AbortSignal): Promise<MapViewState | null>;
  /** Asks the renderer; fails with a time-out when no window answers. */
  currentView(signal: AbortSignal): Promise<MapViewState>;
  /** A PNG of the map as shown, saved in the outputs folder. */
  screenshot(signal: AbortSignal): Promise<{ path: string; width: number; height: number }>;
  /** What the person has selected (map or attribute table): one layer's feature ids, or nothing. */
  selection(signal: AbortSignal): Promise<MapSelection>;
  /**
   * A print layout of the map as shown (title, legend, scale bar, north arrow, attribution,
   * date) composed by the renderer, saved in the outputs folder as a PNG or a one-page PDF.
   */
  exportLayout(
    spec: PrintSpec & { format: 'pdf' | 'png' },
    signal: AbortSignal,
  ): Promise<{ path: string; width: number; height: number; pages: number; dpi: number }>;
}

/** What `PostgisHandle.query` returns: the shape of the local `inspect.sql` answer. */
export interface PgQueryAnswer {
  columns: string[];
  rows: Record<string, unknown>[];
  returned: number;
  /** All rows of the query; null when counting them did not finish in a few seconds. */
  total_rows: number | null;
  truncated: boolean;
  truncated_by: 'limit' | 'size' | null;
  /** Whether geometry is included as GeoJSON, omitted (and which columns), or there is none. */
  geometry: string;
}

/**
 * The PostgreSQL/PostGIS servers the person saved (issue 16), named by connection id only.
 * The dispatcher has already judged the call as a network call to that server (approved).
 */
export interface PostgisHandle {
  /**
   * One query in a READ ONLY transaction with a statement time-out, at most `limit` rows and
   * `maxChars` characters of them; checked again by src-shared/sql/checkServerQuery.ts. Fails
   * with a ToolFailure: an unknown connection, a refused query, the server's error (with its
   * position and hint), a time-out; Stop (`signal`) cancels the query on the server.
   */
  query(
    connectionId: string,
    sql: string,
    opts: { limit: number; includeGeometry: boolean; maxChars: number; signal: AbortSignal },
  ): Promise<PgQueryAnswer>;
  /**
   * Whether `algorithm` can run inside the connection's database: its schema for results (null:
   * none, the result comes back as a local layer), or why not (no SQL form, no such connection).
   */
  pushdownPlan(connectionId: string, algorithm: string): { ok: true; outputSchema: string | null } | { ok: false; reason: string };
  /**
   * Runs a processing algorithm inside the database (issue 16) into a new table of the
   * results schema (never replacing one), or with `localOutput` (`path|layername=NAME`, a new
   * GeoPackage layer) into a temporary table copied back there: nothing stays on the server.
   * `tables` in the algorithm's layerParams order, `params` without the layer params. Stop
   * cancels it on the server; nothing is left behind.
   */
  pushdown(
    call: {
      connectionId: string;
      algorithm: string;
      tables: PgTableName[];
      params: Record<string, unknown>;
      outputName: string;
      localOutput?: string;
    },
    opts: { signal: AbortSignal; progress(fraction: number, message: string): void },
  ): Promise<{ featureCount: number; notes: string[] } & ({ schema: string; table: string } | { output: string; info: LayerInfo })>;
  /** The saved connections (id, name, server), and with `connectionId` the spatial tables of that one. */
  tables(connectionId: string | null): Promise<PgTablesAnswer>;
}

/** What `PostgisHandle.tables` answers: connections, or one connection's spatial tables. */
export interface PgTablesAnswer {
  connections: { id: string; name: string; server: string; results_schema: string | null }[];
  tables?: { table: string; source: string; geometry: string; srid: number | null; rows: number | null; view: boolean }[];
}

/**
 * What the person asked to keep (issue 17): theirs and the open project's, in the app's own
 * database. Texts are normalised and checked again here (one line, 1–500 characters). Every
 * change is announced to the Memory panel. An id that is not one of these memories fails
 * with a ToolFailure.
 */
export interface MemoryHandle {
  /** Newest (last edited) first. */
  list(): Memory[];
  /** The same text already kept in that scope is not kept twice (`already`). */
  remember(input: { scope: MemoryScope; text: string }): { memory: Memory; already: boolean };
  update(id: string, text: string): Memory;
  /** Returns what was deleted. */
  remove(id: string): Memory;
}

export interface Handles {
  project: ProjectHandle;
  gdal: GdalHandle;
  map: MapHandle;
  postgis: PostgisHandle;
  memory: MemoryHandle;
}
export type HandleName = keyof Handles;
export const HANDLE_NAMES: readonly HandleName[] = ['project', 'gdal', 'map', 'postgis', 'memory'];
