import type { Map as MapLibreMap } from 'maplibre-gl';
import { useEffect } from 'react';
import { ONLINE_BASEMAP } from '../../src-shared/domain/settingsDisplay.js';
import { OFFLINE_BASEMAP_LAYER_IDS, ONLINE_BASEMAP_ID, onlineBasemapSource } from '../../src-shared/style/basemapStyle.js';
import { useDisplaySettings } from '../store/useDisplaySettings.js';
import type { DataUrls } from './dataUrls.js';

/**
 * The online basemap (Settings; off by default): OpenStreetMap tiles fetched by main's data
 * route (never by the page), drawn just above the background in place of the offline layers,
 * which are hidden while it shows and come back when it is switched off.
 */
export function useOnlineBasemap(map: MapLibreMap | null, urls: DataUrls | null): void {
  const display = useDisplaySettings();

  const on = display?.onlineBasemap === true;
  useEffect(() => {
    if (!map || !urls) return;
    const has = map.getSource(ONLINE_BASEMAP_ID) !== undefined;
    if (on && !has) {
      // The data route's z/x/y placeholders stay literal for MapLibre.
      const tiles = urls.data(`${ONLINE_BASEMAP.route}/{z}/{x}/{y}.png`);
      map.addSource(ONLINE_BASEMAP_ID, onlineBasemapSource(tiles, ONLINE_BASEMAP.attribution, ONLINE_BASEMAP.maxZoom));
      map.addLayer({ id: ONLINE_BASEMAP_ID, type: 'raster', source: ONLINE_BASEMAP_ID }, OFFLINE_BASEMAP_LAYER_IDS[0]);
    } else if (!on && has) {
      map.removeLayer(ONLINE_BASEMAP_ID);
      map.removeSource(ONLINE_BASEMAP_ID);
    }
    for (const id of OFFLINE_BASEMAP_LAYER_IDS) if (map.getLayer(id)) map.setLayoutProperty(id, 'visibility', on ? 'none' : 'visible');
  }, [map, urls, on]);
}
