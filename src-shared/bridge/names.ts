/**
 * The bridge's method and event names, alone, so the preload can build one function per
 * method without pulling in zod. `contract.ts` checks these lists against the schemas.
 */
export const METHOD_NAMES = [
  'app/info',
  'project/get',
  'chat/send',
  'run/stop',
  'tools/decide',
  'entries/trigger',
] as const;
export type MethodName = (typeof METHOD_NAMES)[number];

export const EVENT_NAMES = [
  'run/changed',
  'message/upserted',
  'assistant/delta',
  'approval/requested',
  'approval/resolved',
  'layers/changed',
  'map/fit-requested',
] as const;
export type EventName = (typeof EVENT_NAMES)[number];
