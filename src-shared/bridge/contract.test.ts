import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { events, methods } from './contract.js';
import { EVENT_NAMES, METHOD_NAMES } from './names.js';

describe('bridge contract', () => {
  it('has a schema for exactly the names the preload exposes', () => {
    assert.deepEqual(Object.keys(methods).sort(), [...METHOD_NAMES].sort());
    assert.deepEqual(Object.keys(events).sort(), [...EVENT_NAMES].sort());
  });
  it('names methods domain/verb and events in the past tense or as state', () => {
    for (const name of [...METHOD_NAMES, ...EVENT_NAMES]) assert.match(name, /^[a-z]+\/[a-z-]+$/, name);
  });
});
