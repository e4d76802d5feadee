import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ChatMessage } from '../../../src-shared/domain/chat.js';
import type { ToolResult } from '../../../src-shared/tools/toolResult.js';
import { historyToModelMessages } from './historyToModelMessages.js';

const at = { conversationId: 'k1', createdAt: '' };
function turn(result: ToolResult): ChatMessage[] {
  return [
    { ...at, id: 'u', seq: 1, role: 'user', text: 'buffer it' },
    { ...at, id: 'a', seq: 2, role: 'assistant', text: '', toolCalls: [{ id: 'c1', name: 'processing_run', arguments: '{}' }] },
    {
      ...at,
      id: 't',
      seq: 3,
      role: 'tool',
      text: '',
      tool: {
        callId: 'c1',
        toolId: 'processing.run',
        name: 'processing_run',
        title: 'Run',
        args: {},
        summary: '',
        status: result.ok ? 'ok' : 'error',
        durationMs: 1,
        result,
      },
    },
    { ...at, id: 'n', seq: 4, role: 'notice', text: 'Loaded layer out (tool output)', level: 'info' },
  ];
}
const toolContent = (messages: ChatMessage[]) => historyToModelMessages(messages).find((m) => m.role === 'tool')!.content;

describe('historyToModelMessages', () => {
  it('the host-only info of load_layers never reaches the model; the rest of the payload does, verbatim', () => {
    const info = { kind: 'vector', fields: [{ name: 'secret_field_list', type: 'string' }] };
    const result: ToolResult = {
      ok: true,
      data: { output: '/o/out.gpkg', feature_count: 3, load_layers: [{ path: '/o/out.gpkg|layername=out', name: 'out', info }] },
    };
    assert.deepEqual(JSON.parse(toolContent(turn(result))), {
      ok: true,
      data: { output: '/o/out.gpkg', feature_count: 3, load_layers: [{ path: '/o/out.gpkg|layername=out', name: 'out' }] },
    });
  });

  it('a payload without info and an error are passed as they were saved; notices stay out', () => {
    const plain: ToolResult = { ok: true, data: { load_layers: [{ path: '/o/a.tif', name: 'a' }], notes: [] } };
    assert.equal(toolContent(turn(plain)), JSON.stringify(plain));
    const failed: ToolResult = { ok: false, error: { code: 'timeout', message: 'slow', retryable: true } };
    assert.equal(toolContent(turn(failed)), JSON.stringify(failed));
    assert.ok(!historyToModelMessages(turn(plain)).some((m) => String(m.content).includes('Loaded layer')));
  });
});
