import type { ApprovalRequest } from '../../src-shared/domain/chat.js';
import { i18n } from '../i18n/i18n.js';

type Preview = NonNullable<ApprovalRequest['preview']>;

/** Known keys and their message (CRS is the same in every language). */
const LABELS: Record<string, () => string> = {
  input: () => i18n.t('approval:label_input'),
  layer: () => i18n.t('approval:label_layer'),
  features: () => i18n.t('approval:label_features'),
  crs: () => 'CRS',
  output: () => i18n.t('approval:label_output'),
  output_path: () => i18n.t('approval:label_output'),
};

/** Known keys by name (`crs` → "CRS"); others spelled out (`featureCount` → "Feature count"). */
export function previewLabel(key: string): string {
  // Other keys are the tool's own names, spelled out but not translated.
  const known = LABELS[key];
  if (known) return known();
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .trim()
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The facts worth showing: unknowns (null) are left out rather than shown as blanks. */
export function previewRows(preview: Preview): { key: string; label: string; value: string }[] {
  return Object.entries(preview)
    .filter((entry): entry is [string, string | number | boolean] => entry[1] !== null)
    .map(([key, value]) => ({
      key,
      label: previewLabel(key),
      value:
        typeof value === 'number'
          ? value.toLocaleString('en')
          : typeof value === 'boolean'
            ? value
              ? i18n.t('approval:yes')
              : i18n.t('approval:no')
            : value,
    }));
}
