import type { TFunction } from 'i18next';
import type { ModelSettingsView } from '../../src-shared/bridge/settingsContract.js';

/**
 * Where keys are kept, in the interface language. Main words the note in English with the
 * key file's path inside; the path is taken out of it so the sentence can be translated.
 * A note of another shape is shown as main wrote it.
 */
export function keyStorageText(storage: ModelSettingsView['keyStorage'], t: TFunction<'settings'>): string {
  if (storage.kind === 'os-keychain') return t('keyStorageKeychain');
  const m = /^(The OS keychain is not available, so k|K)eys are kept in (.+), a file only your user account can read/.exec(storage.note);
  if (!m) return storage.note;
  return m[1] === 'K' ? t('keyStorageFile', { file: m[2] }) : t('keyStorageFileNoKeychain', { file: m[2] });
}
