import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Layer } from '../../src-shared/domain/layer.js';
import { terrainSettingsOf } from '../../src-shared/style/compileTerrain.js';

/**
 * "3D terrain" for a single-band raster (a DEM): runs `map.set_terrain` as the person, on or
 * off, so it is audited and undoable like the assistant's call and saved with the project.
 * Multi-band rasters are imagery, not elevations: no toggle.
 */
export function TerrainToggle({ layer, run }: { layer: Layer; run(entry: string, params: Record<string, unknown>): Promise<void> }) {
  const { t } = useTranslation('style');
  const [busy, setBusy] = useState(false);
  if (layer.kind !== 'raster' || layer.info.bands.length !== 1) return null;
  const on = terrainSettingsOf(layer) !== null;
  const toggle = async () => {
    setBusy(true);
    await run('map.set_terrain', on ? { layer: layer.id, off: true } : { layer: layer.id });
    setBusy(false);
  };
  return (
    <label className="style-panel__row">
      <span className="style-panel__label">{t('terrain')}</span>
      <input
        type="checkbox"
        data-testid="terrain-toggle"
        checked={on}
        disabled={busy}
        aria-label={t('terrainOf', { name: layer.name })}
        onChange={() => void toggle()}
      />
    </label>
  );
}
