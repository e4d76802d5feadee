import type { LegendEntry } from '../../src-shared/style/legend.js';
import { i18n } from '../i18n/i18n.js';

/** A legend note in the interface language (the English wording comes with it from legend.ts). */
export function legendNoteText(entry: Extract<LegendEntry, { kind: 'note' }>): string {
  const m = entry.message;
  if (!m) return entry.text;
  const t = i18n.getFixedT(null, 'map');
  switch (m.key) {
    case 'labels':
      return t('legendNoteLabels', { field: m.field });
    case 'extrude':
      return t('legendNoteExtrude', { field: m.field, scale: m.scale });
    case 'terrain':
      return t('legendNoteTerrain', { exaggeration: m.exaggeration });
  }
}
