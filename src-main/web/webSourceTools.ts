import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import type { Layer, LayerInfo } from '../../src-shared/domain/layer.js';
import { sourceParam } from '../../src-shared/security/paramCapabilities.js';
import { ToolFailure } from '../../src-shared/tools/toolResult.js';
import { defineTool, type ToolDefinition } from '../../src-shared/tools/toolSdk.js';
import type { RgbRasterStyle } from '../../src-shared/style/styleModel.js';
import type { ComposedToolDeps } from '../composition/composedTools.js';
import { inspectSource } from '../security/sourceInspection.js';
import type { ProjectStore } from '../store/projectStore.js';
import { WEB_SOURCE_KINDS, serviceDescription, vsicurlPath, webSourceOrigin, webSourceUrlProblem } from './sourceDescriptions.js';

/**
 * Network map sources as layers (issue #13): `layers.add_web_source` adds an XYZ/TMS, WMS or
 * WMTS service, a cloud-optimised GeoTIFF or a FlatGeobuf file over HTTP.
 *
 * The URL is a `source` parameter, so the dispatcher classifies it like any path GDAL opens:
 * its origin makes the call a network call, the approval dialog names it, and the egress gate
 * is open to it only while the approved call runs. Once a call from an origin has run (the
 * person approved it in the network dialog), the origin is remembered for this project
 * (`network_origin_grants`): later sources from it are asked for only as the write they are,
 * and the gate keeps it open for display reads while a layer of the project reads from it
 * (`standingOrigins`, fed to `EgressGate.allowPersistently` here, where the store and the
 * gate meet).
 */
export function createWebSourceTools(deps: ComposedToolDeps): ToolDefinition[] {
  deps.egress.allowPersistently(standingOrigins(deps.store, deps.privatePaths));
  return [addWebSource(deps)];
}

/**
 * Origins the gate keeps open outside calls: granted for this project AND read by one of its
 * layers (its source, or a URL inside its GDAL description). Nothing is open for a granted
 * origin whose layers were removed, nor for a layer whose origin was never granted.
 */
export function standingOrigins(store: ProjectStore, privatePaths: ComposedToolDeps['privatePaths']): () => ReadonlySet<string> {
  const originsOf = new Map<string, readonly string[]>();
  return () => {
    const granted = new Set(store.networkOrigins.list());
    const out = new Set<string>();
    if (granted.size === 0) return out;
    for (const layer of store.layers.list()) {
      let origins = originsOf.get(layer.source);
      if (!origins) {
        const verdict = inspectSource(layer.source, privatePaths);
        origins = verdict.ok ? verdict.origins : [];
        // Descriptions this tool writes never change (named by their content); others are re-read when they do.
        if (verdict.ok) originsOf.set(layer.source, origins);
      }
      for (const o of origins) if (granted.has(o)) out.add(o);
    }
    return out;
  };
}

const Input = z
  .object({
    kind: z
      .enum(WEB_SOURCE_KINDS)
      .describe(
        "'xyz' or 'tms': a tile template with {z}, {x}, {y} (tms counts rows from the bottom); 'wms': a WMS endpoint; " +
          "'wmts': a WMTS GetCapabilities URL; 'cog': a cloud-optimised GeoTIFF; 'fgb': a FlatGeobuf file (both read with HTTP range requests)",
      ),
    url: sourceParam(
      'http(s) URL of the source (no user name or password). The first source from an origin is asked for in the network dialog; later ones from the same origin are remembered for this project',
    ),
    layer: z.string().min(1).max(256).optional().describe('WMS or WMTS layer name (required for those kinds)'),
    name: z.string().min(1).max(120).optional().describe('Name shown in the layer list'),
    max_zoom: z.number().int().min(0).max(22).optional().describe('Deepest zoom level of an XYZ/TMS/WMS source (default 19)'),
  })
  .superRefine((a, ctx) => {
    const problem = webSourceUrlProblem(a.kind, a.url);
    if (problem) ctx.addIssue({ code: 'custom', path: ['url'], message: problem });
    if ((a.kind === 'wms' || a.kind === 'wmts') && !a.layer)
      ctx.addIssue({ code: 'custom', path: ['layer'], message: `a ${a.kind.toUpperCase()} source needs the layer name` });
    // eslint-disable-next-line no-control-regex -- the point is to refuse control characters
    if (a.layer && /[\0-\x1f<>&"]/.test(a.layer))
      ctx.addIssue({ code: 'custom', path: ['layer'], message: 'the layer name contains characters a service layer name cannot have' });
  });
type Input = z.output<typeof Input>;

const KIND_LABEL: Record<Input['kind'], string> = {
  xyz: 'XYZ tiles',
  tms: 'TMS tiles',
  wms: 'WMS',
  wmts: 'WMTS',
  cog: 'cloud-optimised GeoTIFF',
  fgb: 'FlatGeobuf',
};

/** Tiles of a web map: three 8-bit channels, shown as they come. */
function rgbStyle(): RgbRasterStyle {
  const ch = (band: number) => ({ band, min: 0, max: 255 });
  return { type: 'rgb', red: ch(1), green: ch(2), blue: ch(3) };
}

function defaultName(a: Input): string {
  if (a.layer) return a.layer;
  const host = new URL(a.url.replace(/[{}]/g, '')).hostname;
  const file =
    a.kind === 'cog' || a.kind === 'fgb'
      ? new URL(a.url).pathname
          .split('/')
          .pop()
          ?.replace(/\.[^.]+$/, '')
      : null;
  return file || `${host} (${KIND_LABEL[a.kind]})`;
}

function addWebSource(deps: ComposedToolDeps) {
  return defineTool({
    id: 'layers.add_web_source',
    version: '1.0.0',
    group: 'layers',
    icon: 'layers',
    title: 'Add web map source',
    description:
      'Adds a network map source to the project as a layer: XYZ/TMS raster tiles (a template such as ' +
      'https://tiles.example.org/{z}/{x}/{y}.png), a WMS or WMTS layer, a cloud-optimised GeoTIFF (kind cog) or a FlatGeobuf ' +
      'file (kind fgb) over HTTP. The data stays on the server and is read as the map needs it. The person approves the ' +
      'first source from each origin in the network dialog; it is then remembered for this project. Returns the new layer (id, name, kind) and its origin.',
    input: Input,
    safety: 'write',
    remembersOrigins: true,
    userVisible: true,
    exec: 'main',
    handles: ['project', 'gdal'],
    timeoutMs: 120_000,
    summary: (a) => `Add ${KIND_LABEL[a.kind]} ${a.layer ? `'${a.layer}' ` : ''}from ${a.url}`,
    notice: (data) => {
      const d = data as { layer?: { name?: string }; origin?: string } | null;
      return d?.layer?.name ? `Added web map layer ${d.layer.name} from ${d.origin ?? 'the network'}` : null;
    },
    async prepare(args) {
      const origin = webSourceOrigin(args.kind, args.url);
      return {
        args,
        preview: {
          source: KIND_LABEL[args.kind],
          origin,
          remembered: deps.store.networkOrigins.has(origin)
            ? 'this origin is already approved for this project'
            : 'if approved, this origin is remembered for this project',
        },
      };
    },
    async execute(args, { handles, signal }) {
      const origin = webSourceOrigin(args.kind, args.url);
      let source = vsicurlPath(args.kind, args.url);
      if (!source) {
        const text = serviceDescription(args.kind as 'xyz' | 'tms' | 'wms' | 'wmts', args.url, args.layer, args.max_zoom);
        const dir = deps.outputsDir();
        mkdirSync(dir, { recursive: true });
        source = join(dir, `web-${args.kind}-${createHash('sha256').update(text).digest('hex').slice(0, 16)}.xml`);
        writeFileSync(source, text);
      }
      let info: LayerInfo;
      try {
        info = await handles.gdal.call('layers.describe', { source }, { signal });
      } catch (err) {
        throw new ToolFailure(
          'handler_error',
          `The ${KIND_LABEL[args.kind]} source at ${args.url} could not be opened: ${err instanceof Error ? err.message : String(err)}`,
          false,
          'Check the URL (and the layer name for WMS/WMTS); the server must answer without a login.',
        );
      }
      const expected = args.kind === 'fgb' ? 'vector' : 'raster';
      if (info.kind !== expected)
        throw new ToolFailure('invalid_params', `${args.url} is a ${info.kind} source, not a ${KIND_LABEL[args.kind]}.`, false);
      const tiled = args.kind !== 'cog' && args.kind !== 'fgb';
      const layer: Layer = handles.project.addLayer({
        name: args.name ?? defaultName(args),
        source,
        sublayer: null,
        info,
        ...(tiled && info.bands.length >= 3 ? { style: rgbStyle() } : {}),
      });
      // Only an approved call runs (a network origin always asks until granted): remember it.
      deps.store.networkOrigins.grant(origin);
      return {
        layer: { id: layer.id, name: layer.name, kind: layer.kind, extent_4326: info.extent4326 },
        origin,
        remembered_for_project: true,
        ...(tiled ? { description_file: source } : {}),
      };
    },
  });
}
