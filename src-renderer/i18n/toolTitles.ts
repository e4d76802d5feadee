import { i18n } from './i18n.js';

/**
 * A tool's title as the interface shows it (tool cards, the approval dialog, the audit log).
 * Main sends each tool's English `title`; in another language a built-in tool's title comes
 * from the `tools` catalogue, keyed by tool id. English, and any tool the catalogue does not
 * know (plugins, MCP), keep the title main sent, byte for byte.
 *
 * Ids hold dots, which i18next reads as nesting: the lookup turns the key separator off.
 * `getResource` reads only the current language (no fallback to the catalogue's English copy).
 */
export function toolTitle(toolId: string | null | undefined, fallback: string): string {
  const lng = i18n.resolvedLanguage ?? i18n.language;
  if (!toolId || !lng || lng === 'en') return fallback;
  const title: unknown = i18n.getResource(lng, 'tools', toolId, { keySeparator: false });
  return typeof title === 'string' && title ? title : fallback;
}
