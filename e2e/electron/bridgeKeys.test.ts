import assert from 'node:assert/strict';
import { test } from 'node:test';
import { expectedBridgeKeys, preloadExposure } from './bridgeKeys.js';

// No Electron needed: the list the Electron test expects is the contract's, and so is the preload's.
test('the preload exposes window.mapwright with exactly the bridge contract’s methods and on', async () => {
  const exposed = await preloadExposure();
  assert.deepEqual(
    exposed.map((e) => e.world),
    ['mapwright'],
    'one object, window.mapwright',
  );
  assert.deepEqual(exposed[0]!.keys, expectedBridgeKeys());
  assert.ok(exposed[0]!.functions, 'every key is a function');
});
