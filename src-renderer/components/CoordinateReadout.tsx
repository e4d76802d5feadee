import { useEffect, useMemo, useState } from 'react';
import { i18n } from '../i18n/i18n.js';
import { useBridge } from '../bridge/BridgeContext.js';
import { formatLonLat, formatProjected } from '../map/coordinateFormat.js';
import { CrsTransforms, type ToCrs } from '../map/crsTransforms.js';
import { projectCrs } from '../map/projectCrs.js';
import { useCursor } from '../store/cursorStore.js';
import { selectLayers } from '../store/slices/layersSlice.js';
import { useAppStore } from '../store/useAppStore.js';

type Converter = { epsg: number; toCrs: ToCrs } | { epsg: number; error: string };

/** The cursor in the project CRS, or why not (its definition is still on its way or failed). */
function projectedText(converter: Converter | null, epsg: number, geographic: boolean, at: [number, number]) {
  if (!converter || converter.epsg !== epsg) return { text: `EPSG:${epsg} …` };
  if ('error' in converter) return { text: i18n.t('status:unavailable', { epsg }), title: converter.error };
  try {
    const [x, y] = converter.toCrs(at);
    if (!Number.isFinite(x) || !Number.isFinite(y)) return { text: i18n.t('status:outOfRange', { epsg }) };
    return { text: formatProjected({ epsg, geographic }, x, y), x, y };
  } catch (err) {
    return { text: i18n.t('status:outOfRange', { epsg }), title: err instanceof Error ? err.message : String(err) };
  }
}

/**
 * The status bar's coordinate readout (issue #15): the cursor's longitude and latitude in
 * degrees, and the same point in the project CRS (map/projectCrs.ts) through proj4js, with the
 * definition main looks up in GDAL once per code. `data-lon`/`data-lat` (and `data-x`/`data-y`
 * in `data-crs`) carry the raw numbers for tests.
 */
export function CoordinateReadout() {
  const bridge = useBridge();
  const at = useCursor((s) => s.at);
  const layers = useAppStore(selectLayers);
  const { epsg, geographic } = projectCrs(layers);
  const transforms = useMemo(
    () => new CrsTransforms(async (code) => (await bridge.call('crs/definition', { epsg: code })).proj4),
    [bridge],
  );
  const [converter, setConverter] = useState<Converter | null>(null);

  useEffect(() => {
    let live = true;
    transforms.get(epsg).then(
      (toCrs) => live && setConverter({ epsg, toCrs }),
      (err: unknown) => live && setConverter({ epsg, error: err instanceof Error ? err.message : String(err) }),
    );
    return () => {
      live = false;
    };
  }, [transforms, epsg]);

  const projected = at ? projectedText(converter, epsg, geographic, at) : null;
  return (
    <span
      className="status-bar__item status-bar__coords"
      data-testid="coordinate-readout"
      data-crs={`EPSG:${epsg}`}
      {...(at && { 'data-lon': String(at[0]), 'data-lat': String(at[1]) })}
      {...(projected?.x !== undefined && { 'data-x': String(projected.x), 'data-y': String(projected.y) })}
      title={projected?.title ?? i18n.t('status:cursorTitle', { epsg })}
    >
      {at && projected ? `${formatLonLat(at[0], at[1])} · ${projected.text}` : `EPSG:${epsg}`}
    </span>
  );
}
