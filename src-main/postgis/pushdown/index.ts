/** The push-down engine (issue 16): processing algorithms run as SQL inside PostGIS. */
export { describePgInput, samePgDatabase } from './describeInput.js';
export { canPushDown, PUSHDOWN_ALGORITHMS } from './pushdownSql.js';
export { runPushdown } from './runPushdown.js';
export * from './types.js';
