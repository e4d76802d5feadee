import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { UI_LANGUAGES, type UiLanguage } from '../../src-shared/domain/settingsDisplay.js';
import { useBridge } from '../bridge/BridgeContext.js';
import { applyLanguage } from '../i18n/i18n.js';
import { appStore } from '../store/appStore.js';
import { selectDisplaySettings } from '../store/slices/settingsSlice.js';
import { useAppStore } from '../store/useAppStore.js';

/** Each language named in itself, so a person who cannot read the current one still finds theirs. */
const LANGUAGE_LABELS: Record<UiLanguage, string> = { en: 'English', 'zh-CN': '简体中文' };

/**
 * The interface language (issue 15): kept in main's display settings like the basemap,
 * applied at once (apart from the model form's Save). It also sets the assistant's reply language.
 */
export function LanguageSetting() {
  const { t } = useTranslation('settings');
  const bridge = useBridge();
  const display = useAppStore(selectDisplaySettings);
  const [failure, setFailure] = useState<string | null>(null);
  async function choose(language: UiLanguage) {
    setFailure(null);
    applyLanguage(language);
    try {
      appStore.getState().setDisplaySettings(await bridge.call('settings/set-display', { language }));
    } catch (e) {
      // Not kept by main: back to the language it has.
      applyLanguage(display?.language ?? 'en');
      setFailure(e instanceof Error ? e.message : String(e));
    }
  }
  return (
    <label className="settings-field">
      <span>{t('language')}</span>
      <select
        data-testid="language-select"
        value={display?.language ?? 'en'}
        disabled={!display}
        onChange={(e) => void choose(e.target.value as UiLanguage)}
      >
        {UI_LANGUAGES.map((lang) => (
          <option key={lang} value={lang} lang={lang}>
            {LANGUAGE_LABELS[lang]}
          </option>
        ))}
      </select>
      <small>{t('languageHelp')}</small>
      {failure && <em className="settings-field__error">{failure}</em>}
    </label>
  );
}
