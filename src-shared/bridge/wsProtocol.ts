import { z } from 'zod';

/**
 * Frames of the web host's WebSocket transport. It carries the same contract as Electron's
 * IPC: a request names a contract method, the host validates `params` with the contract.
 */
export const WsClientFrame = z.object({
  type: z.literal('request'),
  id: z.number().int(),
  method: z.string(),
  params: z.unknown(),
});
export type WsClientFrame = z.infer<typeof WsClientFrame>;

// A plain union: two members share `type: 'response'` (zod's discriminated union refuses that).
export const WsServerFrame = z.union([
  z.object({ type: z.literal('response'), id: z.number().int(), ok: z.literal(true), result: z.unknown() }),
  z.object({ type: z.literal('response'), id: z.number().int(), ok: z.literal(false), error: z.string() }),
  z.object({ type: z.literal('event'), name: z.string(), payload: z.unknown() }),
]);
export type WsServerFrame = z.infer<typeof WsServerFrame>;

/** Path of the WebSocket endpoint; the token travels as `?token=` like the page URL's. */
export const WS_PATH = '/bridge';
