import assert from 'node:assert/strict';
import { test } from 'node:test';
import { WORKER_CALLS } from '../../../src-shared/worker/workerCalls.js';
import { WORKER_FUNCTIONS } from './index.js';

test('the worker implements exactly the functions of the contract (the types say so; this says it at run time)', () => {
  assert.deepEqual(Object.keys(WORKER_FUNCTIONS).sort(), Object.keys(WORKER_CALLS).sort());
});

test('every function name of the contract is family.verb', () => {
  for (const name of Object.keys(WORKER_CALLS)) assert.match(name, /^[a-z]+\.[a-z_]+$/, name);
});
