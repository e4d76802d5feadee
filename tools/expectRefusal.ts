import { ToolFailure } from '../src-shared/tools/toolResult.js';

/** For tool tests: the ToolFailure a call is refused with; anything else (or success) fails the test. */
export async function expectRefusal(promise: Promise<unknown>): Promise<ToolFailure> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof ToolFailure) return err;
    throw err;
  }
  throw new Error('expected a refusal');
}
