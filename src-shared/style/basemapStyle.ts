import type { StyleSpecification } from 'maplibre-gl';
import { GLYPHS_ASSET_PATH } from './glyphs.js';

/**
 * The offline world basemap: Natural Earth countries, lakes and coastline shipped as GeoJSON in
 * assets/basemap (see assets/basemap/SOURCES.md; rebuilt by scripts/build-basemap.ts).
 *
 * Kept free of runtime imports so main, renderer and tests can all build the same style; the
 * caller decides how an asset file becomes a URL (file://, a custom protocol, a dev server).
 */

/** Asset paths, relative to the assets directory, that the style loads. */
export const BASEMAP_FILES = {
  countries: 'basemap/countries.geojson',
  lakes: 'basemap/lakes.geojson',
  coastline: 'basemap/coastline.geojson',
} as const;

/** Every basemap source and layer id starts with this, so app layers never collide with them. */
export const BASEMAP_PREFIX = 'basemap-';

/** Soft, low-contrast colours so user layers drawn above stay the focus. */
export const BASEMAP_COLOURS = {
  /** Ocean and lakes alike: inland water reads as water. */
  water: '#aad3df',
  land: '#f2efe9',
  countryBorder: '#b8aeb4',
  /** A darker shade of the water so shores stay crisp where land and water colours are close. */
  coastline: '#6b9bb0',
} as const;

/** Layer ids in drawing order (bottom first). */
export const BASEMAP_LAYER_IDS = [
  'basemap-background',
  'basemap-countries',
  'basemap-lakes',
  'basemap-country-borders',
  'basemap-coastline',
] as const;

/** The topmost basemap layer: app layers go above it (MapLibre adds layers on top by default). */
export const BASEMAP_TOP_LAYER_ID = 'basemap-coastline';

/** True for ids this module owns, so callers can tell basemap layers from app layers. */
export function isBasemapLayerId(id: string): boolean {
  return id.startsWith(BASEMAP_PREFIX);
}

/**
 * Builds the MapLibre style for the basemap. The basemap itself has no text or icons; the
 * style names the shipped label glyphs (assets/glyphs, built offline) so that labelled app
 * layers can draw text without any server.
 *
 * @param assetUrl maps an asset path such as 'basemap/countries.geojson' to a URL MapLibre can
 *   fetch from wherever the app serves its assets.
 */
export function buildBasemapStyle(assetUrl: (file: string) => string): StyleSpecification {
  return {
    version: 8,
    name: 'Mapwright offline basemap (Natural Earth)',
    glyphs: assetUrl(GLYPHS_ASSET_PATH),
    sources: {
      'basemap-countries': {
        type: 'geojson',
        data: assetUrl(BASEMAP_FILES.countries),
        attribution: 'Made with Natural Earth',
      },
      'basemap-lakes': { type: 'geojson', data: assetUrl(BASEMAP_FILES.lakes) },
      'basemap-coastline': { type: 'geojson', data: assetUrl(BASEMAP_FILES.coastline) },
    },
    layers: [
      {
        id: 'basemap-background',
        type: 'background',
        paint: { 'background-color': BASEMAP_COLOURS.water },
      },
      {
        id: 'basemap-countries',
        type: 'fill',
        source: 'basemap-countries',
        paint: { 'fill-color': BASEMAP_COLOURS.land },
      },
      {
        id: 'basemap-lakes',
        type: 'fill',
        source: 'basemap-lakes',
        paint: { 'fill-color': BASEMAP_COLOURS.water },
      },
      {
        // Drawn from the country polygons' outlines (there is no separate boundary-lines file),
        // above the lakes so borders that run through lakes stay visible.
        id: 'basemap-country-borders',
        type: 'line',
        source: 'basemap-countries',
        layout: { 'line-join': 'round' },
        paint: {
          'line-color': BASEMAP_COLOURS.countryBorder,
          'line-width': ['interpolate', ['linear'], ['zoom'], 0, 0.3, 4, 0.6, 8, 1],
        },
      },
      {
        id: 'basemap-coastline',
        type: 'line',
        source: 'basemap-coastline',
        layout: { 'line-join': 'round', 'line-cap': 'round' },
        paint: {
          'line-color': BASEMAP_COLOURS.coastline,
          'line-width': ['interpolate', ['linear'], ['zoom'], 0, 0.4, 4, 0.8, 8, 1.2],
        },
      },
    ],
  };
}

/** The online basemap's raster source and layer (Settings → online basemap; off by default). */
export const ONLINE_BASEMAP_ID = 'basemap-online';

/** The offline layers the online basemap covers (hidden while it is shown; the background stays). */
export const OFFLINE_BASEMAP_LAYER_IDS = BASEMAP_LAYER_IDS.filter((id) => id !== 'basemap-background');

/**
 * The online basemap as a MapLibre raster source: `tileUrl` is the host's data route for
 * `tiles/basemap-online/{z}/{x}/{y}.png`, so tiles come through main, never from the page directly.
 */
export function onlineBasemapSource(tileUrl: string, attribution: string, maxZoom: number) {
  return { type: 'raster' as const, tiles: [tileUrl], tileSize: 256, maxzoom: maxZoom, attribution };
}
