import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { Layer } from '../../src-shared/domain/layer.js';
import { rampStops } from '../../src-shared/style/colourRamps.js';
import { CLASS_METHODS, fieldsFor, RAMPS, type StyleForm } from '../style/styleForm.js';
import { ExtrudeFields } from './ExtrudeFields.js';

/** A labelled row of the style form. */
export function StyleRow({ label, children }: { label: string; children: ReactNode }) {
  return (
    <label className="style-panel__row">
      <span className="style-panel__label">{label}</span>
      {children}
    </label>
  );
}

function FieldSelect({ layer, form, onChange }: { layer: Layer; form: StyleForm; onChange(next: Partial<StyleForm>): void }) {
  const { t } = useTranslation('style');
  const fields = fieldsFor(layer, form.kind);
  return (
    <StyleRow label={form.kind === 'categorized' ? t('field') : t('numericField')}>
      <select data-testid="style-field" value={form.field} onChange={(e) => onChange({ field: e.target.value })}>
        {/* No field yet (a layer without one that fits): Apply says so rather than guessing. */}
        {!fields.includes(form.field) && <option value="">{fields.length ? t('chooseField') : t('noFieldFits')}</option>}
        {fields.map((f) => (
          <option key={f} value={f}>
            {f}
          </option>
        ))}
      </select>
    </StyleRow>
  );
}

/** The inputs of the chosen kind: a colour, a field, or a field with its classes. */
export function StyleKindFields({ layer, form, onChange }: { layer: Layer; form: StyleForm; onChange(next: Partial<StyleForm>): void }) {
  const { t } = useTranslation('style');
  switch (form.kind) {
    case 'simple':
      return (
        <StyleRow label={t('colour')}>
          <span className="style-panel__colour">
            <input type="color" data-testid="style-color" value={form.colour} onChange={(e) => onChange({ colour: e.target.value })} />
            <code>{form.colour}</code>
          </span>
        </StyleRow>
      );
    case 'categorized':
      return <FieldSelect layer={layer} form={form} onChange={onChange} />;
    case 'extrude':
      return (
        <>
          <FieldSelect layer={layer} form={form} onChange={onChange} />
          <ExtrudeFields form={form} onChange={onChange} />
        </>
      );
    case 'graduated':
      return (
        <>
          <FieldSelect layer={layer} form={form} onChange={onChange} />
          <StyleRow label={t('method')}>
            <select
              data-testid="style-method"
              value={form.method}
              onChange={(e) => onChange({ method: e.target.value as StyleForm['method'] })}
            >
              {CLASS_METHODS.map((m) => (
                <option key={m} value={m}>
                  {t(`method_${m}`)}
                </option>
              ))}
            </select>
          </StyleRow>
          <StyleRow label={t('classes')}>
            <input
              type="number"
              data-testid="style-classes"
              min={2}
              max={12}
              step={1}
              value={form.classes}
              // The tool takes 2–12 classes; out-of-range typing is clamped rather than refused.
              onChange={(e) => onChange({ classes: Math.min(12, Math.max(2, Math.round(Number(e.target.value) || 2))) })}
            />
          </StyleRow>
          <StyleRow label={t('colourRamp')}>
            <select data-testid="style-ramp" value={form.ramp} onChange={(e) => onChange({ ramp: e.target.value as StyleForm['ramp'] })}>
              {RAMPS.map((r) => (
                <option key={r} value={r}>
                  {t(`ramp_${r}`)}
                </option>
              ))}
            </select>
          </StyleRow>
          <div
            className="style-panel__ramp"
            aria-hidden="true"
            style={{ background: `linear-gradient(to right, ${rampStops(form.ramp).join(', ')})` }}
          />
        </>
      );
  }
}
