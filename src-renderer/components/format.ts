import { i18n } from '../i18n/i18n.js';

/** "340 ms", "1.2 s", "2 min 05 s": tool durations as a person reads them. */
export function formatDuration(ms: number | null | undefined): string | null {
  if (ms == null || !Number.isFinite(ms) || ms < 0) return null;
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const minutes = Math.floor(ms / 60_000);
  const seconds = Math.floor((ms % 60_000) / 1000);
  return i18n.t('common:minutesSeconds', { minutes, seconds: String(seconds).padStart(2, '0') });
}
