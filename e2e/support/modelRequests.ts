import type { ReceivedRequest } from '../model-server/scriptedReply.js';

/** The tool (wire) names a request to the scripted model offered it. */
export function offeredTools(request: ReceivedRequest | undefined): string[] {
  return (request?.tools ?? []).map((t) => t.function.name);
}

/** The last tool result a request carried to the model (its JSON text), or ''. */
export function lastToolResult(request: ReceivedRequest | undefined): string {
  return String(
    (request?.messages ?? [])
      .filter((m) => m.role === 'tool')
      .map((m) => m.content)
      .at(-1) ?? '',
  );
}
