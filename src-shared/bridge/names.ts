/**
 * The bridge's method and event names, alone, so the preload can build one function per
 * method without pulling in zod. `contract.ts` checks these lists against the schemas.
 * Each domain keeps its own list; the contract files beside this one hold their schemas.
 */
const CORE_METHODS = ['app/info', 'project/get', 'chat/send', 'run/stop', 'tools/decide', 'entries/trigger'] as const;
/** Model settings and connection tests (settingsContract.ts). */
const SETTINGS_METHODS = [
  'settings/get',
  'settings/save',
  'settings/test-connection',
  'settings/list-models',
  'settings/run-scorecard',
  'settings/get-scorecard',
  // Display settings: the online basemap (settingsDisplay.ts).
  'settings/get-display',
  'settings/set-display',
] as const;
/** Conversation list, switching, renaming (conversationContract.ts). */
const CONVERSATION_METHODS = [
  'conversations/list',
  'conversations/open',
  'conversations/new',
  'conversations/rename',
  'conversations/delete',
] as const;
/** Approval modes, undo, audit (toolLayerContract.ts). */
const TOOL_LAYER_METHODS = ['renderer/answer', 'audit/list', 'policy/get'] as const;
/** Attribute table pages and features by id (attributeContract.ts). */
const ATTRIBUTE_METHODS = ['layers/rows', 'layers/features', 'layers/select-ids'] as const;
/** The Plugins panel (pluginContract.ts). */
const PLUGIN_METHODS = ['plugins/list', 'plugins/set-enabled', 'plugins/mark-read-only'] as const;
/** The annotation layer (annotationContract.ts). */
const ANNOTATION_METHODS = ['annotations/list'] as const;
/** The Memory panel (memoryContract.ts). */
const MEMORY_METHODS = ['memory/list'] as const;
/** Adding data without the chat: folder browser, recent files, open dialog (filesContract.ts). */
const FILES_METHODS = ['files/list', 'files/recent', 'files/choose', 'files/load'] as const;
/** CRS definitions for the coordinate readout (crsContract.ts). */
const CRS_METHODS = ['crs/definition'] as const;
/** Projects: new, open, save as, recent, the saved view, locating missing files (projectContract.ts). */
const PROJECT_METHODS = ['project/recent', 'project/new', 'project/open', 'project/save-as', 'project/set-view', 'layers/locate'] as const;
/** PostgreSQL/PostGIS connections: list, save, delete, test, browse, load a table (postgisContract.ts). */
const POSTGIS_METHODS = [
  'postgis/connections',
  'postgis/save-connection',
  'postgis/delete-connection',
  'postgis/test-connection',
  'postgis/browse',
  'postgis/load',
] as const;

/** Recipes of the outputs folder (recipeContract.ts). */
const RECIPE_METHODS = ['recipes/list'] as const;

export const METHOD_NAMES = [
  ...CORE_METHODS,
  ...SETTINGS_METHODS,
  ...CONVERSATION_METHODS,
  ...TOOL_LAYER_METHODS,
  ...ATTRIBUTE_METHODS,
  ...PLUGIN_METHODS,
  ...ANNOTATION_METHODS,
  ...FILES_METHODS,
  ...CRS_METHODS,
  ...PROJECT_METHODS,
  ...POSTGIS_METHODS,
  ...MEMORY_METHODS,
  ...RECIPE_METHODS,
] as const;
export type MethodName = (typeof METHOD_NAMES)[number];

const CORE_EVENTS = [
  'run/changed',
  'message/upserted',
  'assistant/delta',
  'approval/requested',
  'approval/resolved',
  'layers/changed',
  'map/fit-requested',
] as const;
const SETTINGS_EVENTS = [
  'assistant/reasoning-delta',
  'settings/changed',
  'settings/display-changed',
  'settings/scorecard-progressed',
] as const;
const CONVERSATION_EVENTS = ['conversations/changed', 'conversations/opened'] as const;
const TOOL_LAYER_EVENTS = ['policy/changed', 'undo/changed', 'tool/progress', 'renderer/query-requested'] as const;

const PLUGIN_EVENTS = ['plugins/changed'] as const;
const ANNOTATION_EVENTS = ['annotations/changed'] as const;
const PROJECT_EVENTS = ['project/switched'] as const;
const RECIPE_EVENTS = ['recipes/progressed'] as const;
const MEMORY_EVENTS = ['memory/changed'] as const;

export const EVENT_NAMES = [
  ...CORE_EVENTS,
  ...SETTINGS_EVENTS,
  ...CONVERSATION_EVENTS,
  ...TOOL_LAYER_EVENTS,
  ...PLUGIN_EVENTS,
  ...ANNOTATION_EVENTS,
  ...PROJECT_EVENTS,
  ...MEMORY_EVENTS,
  ...RECIPE_EVENTS,
] as const;
export type EventName = (typeof EVENT_NAMES)[number];
