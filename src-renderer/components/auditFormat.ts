import type { AuditEntryView } from '../../src-shared/domain/toolLayer.js';
import { i18n } from '../i18n/i18n.js';

/** "approved (user)", "auto (policy)", "not needed (policy)"; a person's own action reads as such. */
export function decisionLabel(entry: Pick<AuditEntryView, 'decision' | 'decidedBy'>): string {
  if (entry.decision === 'user_action') return i18n.t('audit:yourAction');
  return i18n.t('audit:decisionBy', { decision: i18n.t(`audit:decision_${entry.decision}`), by: i18n.t(`audit:by_${entry.decidedBy}`) });
}

/** Time of day for the row; the full local date and time go in the tooltip. */
export function auditTime(iso: string): { short: string; full: string } {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return { short: iso, full: iso };
  const pad = (n: number) => String(n).padStart(2, '0');
  return {
    short: `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`,
    full: date.toLocaleString(i18n.language),
  };
}
