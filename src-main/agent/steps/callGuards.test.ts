import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { toolError } from '../../../src-shared/tools/toolResult.js';
import { CallGuards, canonical } from './callGuards.js';

const call = (args: string) => ({ id: 'x', name: 'layers_load', arguments: args });

describe('CallGuards', () => {
  it('the same call (canonical arguments) a third time is loop_detected, not run', () => {
    const g = new CallGuards();
    assert.equal(g.before(call('{"path":"/a","name":"x"}')), null);
    assert.equal(g.before(call('{"name":"x", "path":"/a"}')), null, 'key order and spacing do not matter');
    const third = g.before(call('{"path":"/a","name":"x"}'));
    assert.ok(third && !third.ok && third.error.code === 'loop_detected');
    assert.equal(g.before(call('{"path":"/b"}')), null, 'other arguments are another call');
  });
  it('the same error code three times in a row stops the run; a success resets the streak', () => {
    const g = new CallGuards();
    const err = toolError('handler_error', 'boom');
    assert.equal(g.after(err), null);
    assert.equal(g.after(err), null);
    assert.equal(g.after({ ok: true, data: 1 }), null);
    assert.equal(g.after(err), null);
    assert.equal(g.after(toolError('invalid_params', 'x')), null);
    assert.equal(g.after(toolError('invalid_params', 'x')), null);
    assert.match(g.after(toolError('invalid_params', 'x')) ?? '', /three calls in a row failed with the same error \(invalid_params\)/);
  });
  it('canonical() sorts nested keys', () => {
    assert.equal(canonical('{"b":{"d":1,"c":2},"a":[{"y":1,"x":2}]}'), '{"a":[{"x":2,"y":1}],"b":{"c":2,"d":1}}');
  });
});
