import { randomUUID } from 'node:crypto';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import type { ToolResult } from '../../src-shared/tools/toolResult.js';
import { payloadForModel } from '../../src-shared/tools/toolSdk.js';
import type { ToolDispatcher } from '../tool-host/toolDispatcher.js';
import type { RegisteredTool, ToolSet } from '../tool-host/toolRegistry.js';

/** What the MCP server needs of the tool layer: the tools, and the one gate every call passes. */
export interface McpToolHost {
  registry: Pick<ToolSet, 'forModel'>;
  dispatcher: Pick<ToolDispatcher, 'dispatch'>;
  /** Tells when the tools offered changed (a plugin came, went or changed); returns the unsubscriber. */
  onToolsChanged?(listener: () => void): () => void;
}

export const SERVER_INFO = { name: 'mapwright', version: '0.1.0' };

const INSTRUCTIONS =
  "Mapwright's GIS tools, run in the person's open Mapwright app. Reads run at once; a change " +
  '(loading, styling, processing) asks the person in the app first, so a call may wait for them; ' +
  'a rejection is final for that call. Layer names come from layers_list.';

/**
 * One MCP session of an outside client (Claude Desktop, Cursor, the MCP inspector): Mapwright's
 * own tools, offered as the model sees them, each call through the dispatcher as caller
 * `client` — the same validation, policy, approval dialog (in the app) and audit.
 */
export function createMcpToolServer(host: McpToolHost): Server {
  const server = new Server(SERVER_INFO, { capabilities: { tools: { listChanged: true } }, instructions: INSTRUCTIONS });
  // Plugins load hot: a client is told its tool list changed (notifications/tools/list_changed).
  let live = false;
  server.oninitialized = () => (live = true);
  const unsubscribe = host.onToolsChanged?.(() => {
    if (!live) return;
    if (!server.transport) return unsubscribe?.();
    server.sendToolListChanged().catch(() => undefined);
  });
  const clientName = () => {
    const info = server.getClientVersion();
    return info ? `${info.name} ${info.version}`.trim() : 'unknown client';
  };

  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: host.registry.forModel().map(describeTool) }));

  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const progressToken = request.params._meta?.progressToken;
    let lastProgress = -1;
    const outcome = await host.dispatcher.dispatch({
      name: request.params.name,
      rawArgs: request.params.arguments ?? {},
      caller: 'client',
      client: clientName(),
      callId: `mcp-${randomUUID()}`,
      runId: null,
      conversationId: null,
      // Aborted by the client's notifications/cancelled and when its session ends.
      signal: extra.signal,
      ...(progressToken !== undefined
        ? {
            onProgress: (fraction: number, message: string) => {
              // MCP progress must increase with each notification: steps back or in place are not sent.
              if (fraction <= lastProgress) return;
              lastProgress = fraction;
              extra
                .sendNotification({ method: 'notifications/progress', params: { progressToken, progress: fraction, total: 1, message } })
                .catch(() => undefined);
            },
          }
        : {}),
    });
    return toCallResult(outcome.result);
  });
  return server;
}

/** A tool as MCP lists it: its wire name, description, JSON Schema and our own safety facts. */
export function describeTool(tool: RegisteredTool): Tool {
  const { def } = tool;
  const read = def.safety === 'read';
  return {
    name: tool.wireName,
    title: def.title,
    description: def.description,
    inputSchema: { ...tool.inputSchema, type: 'object' } as Tool['inputSchema'],
    annotations: {
      title: def.title,
      readOnlyHint: read,
      ...(read ? {} : { destructiveHint: def.safety === 'destructive' }),
      openWorldHint: def.network === true || (def.origins?.length ?? 0) > 0,
    },
  };
}

/** The tool result as text (its JSON, as the model reads it); a failure is `isError` with its message. */
export function toCallResult(result: ToolResult): CallToolResult {
  if (result.ok) return { content: [{ type: 'text', text: JSON.stringify(payloadForModel(result.data) ?? null) }] };
  const { code, message, hint } = result.error;
  return { content: [{ type: 'text', text: `${message}${hint ? `\n${hint}` : ''}\n(code: ${code})` }], isError: true };
}
