import { useTranslation } from 'react-i18next';
import type { StyleForm } from '../style/styleForm.js';

/**
 * The extrude kind's own inputs (the field comes from the shared field select): metres of
 * height per unit of the field, and the one colour of the raised polygons.
 */
export function ExtrudeFields({ form, onChange }: { form: StyleForm; onChange(next: Partial<StyleForm>): void }) {
  const { t } = useTranslation('style');
  return (
    <>
      <label className="style-panel__row">
        <span className="style-panel__label">{t('heightScale')}</span>
        <input
          type="number"
          data-testid="style-extrude-scale"
          min={0}
          step="any"
          value={form.scale}
          onChange={(e) => onChange({ scale: Number(e.target.value) })}
        />
      </label>
      <label className="style-panel__row">
        <span className="style-panel__label">{t('colour')}</span>
        <span className="style-panel__colour">
          <input type="color" data-testid="style-color" value={form.colour} onChange={(e) => onChange({ colour: e.target.value })} />
          <code>{form.colour}</code>
        </span>
      </label>
    </>
  );
}
