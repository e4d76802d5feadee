/**
 * The shape every message catalogue has: English messages, and Simplified Chinese ones with
 * exactly the same keys — a missing or extra zh-CN key is a type error (tsc checks it), so a
 * catalogue cannot drift. Plurals follow i18next: `key_one` / `key_other`, used as
 * `t('key', { count })`; Chinese has one form, so its `_one` and `_other` may be the same text.
 */
export type Messages = Record<string, string>;

export interface Catalogue<E extends Messages> {
  en: E;
  'zh-CN': { [K in keyof E]: string };
}

export function defineCatalogue<E extends Messages>(c: { en: E; 'zh-CN': { [K in keyof NoInfer<E>]: string } }): Catalogue<E> {
  return c;
}
