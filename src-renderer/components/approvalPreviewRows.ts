import type { ApprovalRequest } from '../../src-shared/domain/chat.js';

type Preview = NonNullable<ApprovalRequest['preview']>;

const LABELS: Record<string, string> = {
  input: 'Input layer',
  layer: 'Layer',
  features: 'Features',
  crs: 'CRS',
  output: 'Output',
  output_path: 'Output',
};

/** Known keys by name (`crs` → "CRS"); others spelled out (`featureCount` → "Feature count"). */
export function previewLabel(key: string): string {
  const known = LABELS[key];
  if (known) return known;
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
      value: typeof value === 'number' ? value.toLocaleString('en') : typeof value === 'boolean' ? (value ? 'yes' : 'no') : value,
    }));
}
