import { checkQuery } from './checkQuery.js';

/**
 * @deprecated Use checkQuery(sql, { tables }) with the project's layer names: it also limits
 * the tables a query may read. This keeps the old signature for callers that do not know the
 * tables yet; it applies every other rule of checkQuery (one SELECT, allowed functions only, no
 * qualified or string-literal table, nothing GDAL would open as another datasource).
 */
export type SelectCheck = { ok: true; sql: string } | { ok: false; reason: string };

/** @deprecated See above. */
export function checkSelectOnly(sql: string): SelectCheck {
  const r = checkQuery(sql, { tables: null });
  return r.ok ? { ok: true, sql: r.sql } : r;
}
