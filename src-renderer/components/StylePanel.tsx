import { useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { Layer } from '../../src-shared/domain/layer.js';
import { useEntryTrigger } from '../bridge/useEntryTrigger.js';
import { selectLayers } from '../store/slices/layersSlice.js';
import { stylePanelStore, useStylePanel } from '../store/stylePanelStore.js';
import { useAppStore } from '../store/useAppStore.js';
import {
  applyPlan,
  fieldsFor,
  formFromLayer,
  KEEP_LABELS,
  STYLE_KINDS,
  withKind,
  type StyleForm,
  type StyleKind,
} from '../style/styleForm.js';
import { StyleKindFields, StyleRow } from './StyleKindFields.js';
import { StyleOpacity } from './StyleOpacity.js';
import { TerrainToggle } from './TerrainToggle.js';
import './StylePanel.css';

/**
 * The style panel: the style tools the assistant has, run as the person through
 * `entries/trigger` (validated, audited and undoable in main like the model's calls). Docked
 * beside the layer list, so the map's toolbar and the legend — which follows the change — stay
 * in view.
 */
export function StylePanel() {
  const layerId = useStylePanel((s) => s.layerId);
  const layer = useAppStore((s) => (layerId ? (selectLayers(s).find((l) => l.id === layerId) ?? null) : null));
  if (!layer) return null;
  return <StylePanelBody key={layer.id} layer={layer} />;
}

function StylePanelBody({ layer }: { layer: Layer }) {
  const { t } = useTranslation(['style', 'common']);
  const trigger = useEntryTrigger();
  const [form, setForm] = useState<StyleForm>(() => formFromLayer(layer));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // The form follows the layer's saved style (an Apply, an Undo, the assistant's change).
  const savedStyle = JSON.stringify(layer.style);
  useEffect(() => setForm(formFromLayer(layer)), [savedStyle]);

  async function run(entry: string, params: Record<string, unknown>): Promise<boolean> {
    const message = await trigger(entry, params);
    if (message) setError(message);
    return !message;
  }

  async function apply() {
    setError(null);
    const plan = applyPlan(layer, form);
    if ('problem' in plan) return setError(plan.problem);
    setBusy(true);
    // In order: a failed colouring leaves the labels alone.
    for (const call of plan.calls) if (!(await run(call.entry, call.params))) break;
    setBusy(false);
  }

  // A refusal speaks of the form as it was sent: once the person changes it, it goes.
  const change = (next: Partial<StyleForm>) => {
    setError(null);
    setForm((f) => ({ ...f, ...next }));
  };
  const close = () => stylePanelStore.getState().close();
  const header = (
    <header className="style-panel__head">
      <span className="style-panel__title" title={layer.name}>
        {t('title', { name: layer.name })}
      </span>
      <button
        type="button"
        className="icon-btn"
        data-testid="style-close"
        onClick={close}
        aria-label={t('closePanel')}
        title={t('close', { ns: 'common' })}
      >
        ✕
      </button>
    </header>
  );

  // The whole panel: its frame and header around what the layer's kind offers.
  const panel = (body: ReactNode) => (
    <aside
      className="style-panel"
      data-testid="style-panel"
      data-layer-name={layer.name}
      aria-label={t('panelLabel', { name: layer.name })}
    >
      {header}
      {body}
    </aside>
  );
  // The controls that run an entry and need no answer (opacity, terrain).
  const runQuietly = async (entry: string, params: Record<string, unknown>) => void (await run(entry, params));

  if (layer.kind !== 'vector') {
    return panel(
      <>
        <p className="style-panel__note">{layer.kind === 'raster' ? t('rasterNote') : t('tableNote')}</p>
        {layer.kind === 'raster' && <StyleOpacity layer={layer} run={runQuietly} />}
        {layer.kind === 'raster' && <TerrainToggle layer={layer} run={runQuietly} />}
      </>,
    );
  }

  const replaces = !(STYLE_KINDS as readonly string[]).includes(layer.style.type);
  // The assistant's vector kinds the form has none for, in the reader's words (English: the type).
  const assistantKinds: Record<string, string> = {
    rules: t('styleType_rules'),
    heatmap: t('styleType_heatmap'),
    bivariate: t('styleType_bivariate'),
  };
  const styleTypeLabel = (type: string) => assistantKinds[type] ?? type;
  const labelTemplate = 'labels' in layer.style ? layer.style.labels?.text : undefined;
  return panel(
    <>
      <form
        className="style-panel__form"
        onSubmit={(e) => {
          e.preventDefault();
          void apply();
        }}
      >
        {replaces && <p className="style-panel__note">{t('replaces', { type: styleTypeLabel(layer.style.type) })}</p>}
        <StyleRow label={t('style')}>
          <select data-testid="style-kind" value={form.kind} onChange={(e) => change(withKind(layer, form, e.target.value as StyleKind))}>
            {STYLE_KINDS.map((k) => (
              <option key={k} value={k}>
                {t(`kind_${k}`)}
              </option>
            ))}
          </select>
        </StyleRow>
        <StyleKindFields layer={layer} form={form} onChange={change} />
        <StyleRow label={t('labels')}>
          <select data-testid="style-label-field" value={form.labelField} onChange={(e) => change({ labelField: e.target.value })}>
            <option value="">{t('noLabels')}</option>
            {form.labelField === KEEP_LABELS && <option value={KEEP_LABELS}>{t('keepLabels', { template: labelTemplate ?? '' })}</option>}
            {fieldsFor(layer, 'categorized').map((f) => (
              <option key={f} value={f}>
                {f}
              </option>
            ))}
          </select>
        </StyleRow>
        <div className="style-panel__actions">
          <button type="submit" className="btn btn--primary" data-testid="style-apply" disabled={busy}>
            {busy ? t('applying') : t('apply')}
          </button>
        </div>
        {error && (
          <div className="style-panel__error" role="alert" data-testid="style-error">
            {error}
          </div>
        )}
      </form>
      <div className="style-panel__section">
        <StyleOpacity layer={layer} run={runQuietly} />
      </div>
    </>,
  );
}
