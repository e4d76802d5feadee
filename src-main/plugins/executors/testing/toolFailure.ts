import assert from 'node:assert/strict';
import { ToolFailure } from '../../../../src-shared/tools/toolResult.js';

/** For tests: the ToolFailure a promise rejects with (anything else, or success, fails the test). */
export async function toolFailureOf(p: Promise<unknown>): Promise<ToolFailure> {
  try {
    await p;
  } catch (err) {
    assert.ok(err instanceof ToolFailure, `expected a ToolFailure, got ${String(err)}`);
    return err;
  }
  assert.fail('expected the call to fail');
}
