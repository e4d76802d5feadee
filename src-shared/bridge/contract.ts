import { z } from 'zod';
import { ApprovalRequest, ChatMessage, RunState } from '../domain/chat.js';
import { BBox, Layer } from '../domain/layer.js';
import { ToolResult } from '../tools/toolResult.js';
import type { EventName, MethodName } from './names.js';
import { conversationEvents, conversationMethods } from './conversationContract.js';
import { settingsEvents, settingsMethods } from './settingsContract.js';
import { toolLayerEvents, toolLayerMethods } from './toolLayerContract.js';
import { attributeMethods } from './attributeContract.js';
import { pluginEvents, pluginMethods } from './pluginContract.js';
import { annotationEvents, annotationMethods } from './annotationContract.js';
import { filesMethods } from './filesContract.js';
import { crsMethods } from './crsContract.js';
import { projectEvents, projectMethods } from './projectContract.js';
import { postgisMethods } from './postgisContract.js';
import { recipeEvents, recipeMethods } from './recipeContract.js';
import { memoryEvents, memoryMethods } from './memoryContract.js';
import { MapView } from '../domain/mapView.js';

/**
 * The one contract between the renderer and main (DESIGN §1). Main parses every request
 * with these schemas before acting; the renderer is typed from them. The renderer is not
 * trusted: nothing here lets it name a file to read or run text as code — it can only ask
 * for entries (tools and commands) that main looks up and validates itself.
 */
export const methods = {
  'app/info': {
    params: z.object({}),
    result: z.object({
      version: z.string(),
      host: z.enum(['web', 'electron']),
      /** Prefix for data and tile URLs (`…/data/…`, `…/tiles/…`). */
      dataBase: z.string(),
      /** Query string to append to data URLs (the web host's token), or ''. */
      dataQuery: z.string(),
      model: z.object({ configured: z.boolean(), name: z.string().nullable(), help: z.string().nullable() }),
    }),
  },
  'project/get': {
    params: z.object({}),
    result: z.object({
      project: z.object({ id: z.string(), name: z.string(), path: z.string() }),
      layers: z.array(Layer),
      conversationId: z.string(),
      messages: z.array(ChatMessage),
      run: RunState,
      pendingApprovals: z.array(ApprovalRequest),
      /** Where the map was left; null for a project never looked at. */
      view: MapView.nullable(),
      /** Layers whose file is not where the project says: shown as missing, with "Locate…". */
      missingLayerIds: z.array(z.string()),
    }),
  },
  'chat/send': {
    params: z.object({ text: z.string().trim().min(1).max(20_000) }),
    result: z.object({ runId: z.string().nullable() }),
  },
  'run/stop': {
    params: z.object({}),
    result: z.object({ stopped: z.boolean() }),
  },
  'tools/decide': {
    params: z.object({
      approvalId: z.string(),
      decision: z.enum(['approve', 'reject']),
      remember: z.boolean().default(false),
    }),
    result: z.object({ accepted: z.boolean() }),
  },
  /** The GUI's one way in: run a tool or command by id, as the user. */
  'entries/trigger': {
    params: z.object({ entry: z.string(), params: z.record(z.string(), z.unknown()) }),
    result: ToolResult,
  },
  ...settingsMethods,
  ...conversationMethods,
  ...toolLayerMethods,
  ...attributeMethods,
  ...pluginMethods,
  ...annotationMethods,
  ...filesMethods,
  ...crsMethods,
  ...projectMethods,
  ...postgisMethods,
  ...memoryMethods,
  ...recipeMethods,
} satisfies Record<MethodName, { params: z.ZodType; result: z.ZodType }>;

export const events = {
  'run/changed': RunState,
  'message/upserted': ChatMessage,
  'assistant/delta': z.object({ messageId: z.string(), delta: z.string() }),
  'approval/requested': ApprovalRequest,
  'approval/resolved': z.object({ approvalId: z.string(), decision: z.enum(['approve', 'reject']) }),
  /** `missingLayerIds`: layers whose local file is not there (shown with "Locate…"). */
  'layers/changed': z.object({ layers: z.array(Layer), missingLayerIds: z.array(z.string()).optional() }),
  'map/fit-requested': z.object({ bbox: BBox }),
  ...settingsEvents,
  ...conversationEvents,
  ...toolLayerEvents,
  ...pluginEvents,
  ...annotationEvents,
  ...projectEvents,
  ...memoryEvents,
  ...recipeEvents,
} satisfies Record<EventName, z.ZodType>;

export type Methods = typeof methods;
export type Params<M extends MethodName> = z.input<Methods[M]['params']>;
export type ParsedParams<M extends MethodName> = z.output<Methods[M]['params']>;
export type Result<M extends MethodName> = z.output<Methods[M]['result']>;
export type EventPayload<E extends EventName> = z.output<(typeof events)[E]>;

/** Main's side of the bridge: one handler per method, given parsed params. */
export type MethodHandlers = { [M in MethodName]: (params: ParsedParams<M>) => Promise<Result<M>> };

/** How main pushes events to the renderer(s), whatever the transport. */
export type Emit = <E extends EventName>(name: E, payload: EventPayload<E>) => void;

/** The renderer's side: the same shape under Electron (preload) and the web host (WebSocket). */
export interface BridgeClient {
  call<M extends MethodName>(method: M, params: Params<M>): Promise<Result<M>>;
  on<E extends EventName>(name: E, listener: (payload: EventPayload<E>) => void): () => void;
}

export { type EventName, type MethodName } from './names.js';
