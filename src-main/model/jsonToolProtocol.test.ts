import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createJsonCallHoldback, jsonToolInstructions, parseJsonToolCalls, toJsonProtocolRequest } from './jsonToolProtocol.js';
import type { ModelTool } from './modelClient.js';

const TOOLS = ['layers_load', 'inspect_list_layers'];
const calls = (text: string) => parseJsonToolCalls(text, TOOLS);

describe('JSON-in-prompt tool protocol: parsing replies', () => {
  test('the documented form, with text before it', () => {
    const out = calls('Loading the file.\n{"tool": "layers_load", "arguments": {"path": "/d/a.gpkg"}}');
    assert.equal(out.text, 'Loading the file.');
    assert.deepEqual(out.calls, [{ name: 'layers_load', arguments: '{"path":"/d/a.gpkg"}' }]);
  });

  test('several calls, one per line, in a fence', () => {
    const out = calls(
      'Both:\n```json\n{"tool":"layers_load","arguments":{"path":"a"}}\n{"tool":"inspect_list_layers","arguments":{}}\n```',
    );
    assert.equal(out.text, 'Both:');
    assert.deepEqual(
      out.calls.map((c) => c.name),
      ['layers_load', 'inspect_list_layers'],
    );
  });

  test('other shapes models write: name/parameters, function objects, string arguments, arrays, <tool_call> tags', () => {
    assert.deepEqual(calls('{"name":"layers_load","parameters":{"path":"a"}}').calls, [{ name: 'layers_load', arguments: '{"path":"a"}' }]);
    assert.deepEqual(calls('{"type":"function","function":{"name":"layers_load","arguments":"{\\"path\\":\\"b\\"}"}}').calls, [
      { name: 'layers_load', arguments: '{"path":"b"}' },
    ]);
    assert.deepEqual(calls('[{"tool":"inspect_list_layers"},{"tool":"layers_load","arguments":{"path":"c"}}]').calls.length, 2);
    assert.deepEqual(calls('{"tool_calls":[{"name":"inspect_list_layers","arguments":{}}]}').calls, [
      { name: 'inspect_list_layers', arguments: '{}' },
    ]);
    const tagged = calls('<tool_call>\n{"name": "layers_load", "arguments": {"path": "d"}}\n</tool_call>');
    assert.equal(tagged.text, '');
    assert.equal(tagged.calls.length, 1);
  });

  test('the namespace.name id is taken for the wire name; trailing commas are forgiven', () => {
    assert.deepEqual(calls('{"tool":"layers.load","arguments":{"path":"a",},}').calls, [
      { name: 'layers_load', arguments: '{"path":"a"}' },
    ]);
  });

  test('JSON that is not a call of an offered tool stays text', () => {
    const text = 'The layer style is {"type":"simple","color":"#ff0000"} and {"tool":"rm_rf","arguments":{}}.';
    assert.deepEqual(calls(text), { text, calls: [] });
  });

  test('braces inside strings and unbalanced braces do not confuse it', () => {
    const out = calls('Use {x} here. {"tool":"layers_load","arguments":{"path":"/a/{b}}.gpkg"}} {unclosed');
    assert.deepEqual(out.calls, [{ name: 'layers_load', arguments: '{"path":"/a/{b}}.gpkg"}' }]);
    assert.equal(out.text, 'Use {x} here.  {unclosed');
  });

  test('no JSON at all is a plain answer', () => {
    assert.deepEqual(calls('  Just text.  '), { text: 'Just text.', calls: [] });
  });
});

describe('JSON-in-prompt tool protocol: requests', () => {
  const tool: ModelTool = {
    name: 'layers_load',
    description: 'Loads a file.',
    parameters: { type: 'object', properties: { path: { type: 'string' } } },
  };

  test('instructions list each tool with its schema and the exact form', () => {
    const text = jsonToolInstructions([tool]);
    assert.match(text, /- layers_load: Loads a file\./);
    assert.match(text, /"properties":\{"path":\{"type":"string"\}\}/);
    assert.match(text, /\{"tool": "<tool name>", "arguments": \{ \.\.\. \}\}/);
  });

  test('history: calls written back as JSON, results as user messages, no tools parameter', () => {
    const out = toJsonProtocolRequest({
      tools: [tool],
      messages: [
        { role: 'system', content: 'You are Mapwright.' },
        { role: 'user', content: 'load a' },
        { role: 'assistant', content: 'Loading.', toolCalls: [{ id: 'c1', name: 'layers_load', arguments: '{"path":"a"}' }] },
        { role: 'tool', toolCallId: 'c1', content: '{"ok":true}' },
        { role: 'user', content: 'thanks' },
      ],
    });
    assert.deepEqual(out.tools, []);
    assert.equal(out.messages[0]?.role, 'system');
    assert.match((out.messages[0] as { content: string }).content, /^You are Mapwright\.\n\n## Calling tools/);
    assert.deepEqual(out.messages[2], { role: 'assistant', content: 'Loading.\n{"tool":"layers_load","arguments":{"path":"a"}}' });
    // The result and the next question are one user message: strict servers want alternation.
    assert.deepEqual(out.messages[3], { role: 'user', content: 'Tool result (layers_load, call c1):\n{"ok":true}\n\nthanks' });
    assert.equal(out.messages.length, 4);
  });
});

describe('JSON-in-prompt tool protocol: live holdback', () => {
  test('text flows until a call may start, then waits for the end', () => {
    const hold = createJsonCallHoldback();
    assert.equal(hold.feed('Loading the '), 'Loading the ');
    assert.equal(hold.feed('file.\n`'), 'file.\n');
    assert.equal(hold.feed('``json\n{"tool"'), '');
    assert.equal(hold.feed(':"x"}'), '');
    assert.equal(hold.shown, 'Loading the file.\n');
  });
});
