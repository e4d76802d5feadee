import assert from 'node:assert/strict';
import { test } from 'node:test';
import { HostToMain, lineSplitter, MainToHost, parseLine } from './moduleRpc.js';

test('messages in both directions parse; handle calls are typed per method', () => {
  assert.equal(parseLine(MainToHost, '{"type":"call","id":1,"tool":"echo","args":{},"workDir":"/w"}').ok, true);
  assert.equal(parseLine(MainToHost, '{"type":"handle_reply","id":2,"ok":false,"message":"no"}').ok, true);
  assert.equal(
    parseLine(HostToMain, '{"type":"handle_request","id":1,"call":1,"request":{"handle":"net","method":"fetch","args":["https://x"]}}').ok,
    true,
  );
  const bad = parseLine(HostToMain, '{"type":"handle_request","id":1,"call":1,"request":{"handle":"project","method":"delete","args":[]}}');
  assert.equal(bad.ok, false);
  const extra = parseLine(HostToMain, '{"type":"loaded","tools":[],"evil":true}');
  assert.equal(extra.ok, false);
  const garbage = parseLine(HostToMain, 'hello');
  assert.deepEqual(garbage, { ok: false, problem: 'not JSON: "hello"' });
});

test('lineSplitter keeps partial lines until their newline', () => {
  const s = lineSplitter();
  assert.deepEqual(s.push('{"a":1}\n{"b"'), ['{"a":1}']);
  assert.deepEqual(s.push(':2}\n\n'), ['{"b":2}']);
});
