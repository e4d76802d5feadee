import type { ToolCallRequest } from '../../../src-shared/domain/chat.js';
import { toolError, type ToolResult } from '../../../src-shared/tools/toolResult.js';

/**
 * Loop guards of one run (DESIGN §5): the same call (tool + canonical arguments) a third time
 * is answered `loop_detected` without running; the same error code three times in a row
 * stops the run, and the person is told why.
 */
export class CallGuards {
  private readonly seen = new Map<string, number>();
  private lastCode: string | null = null;
  private streak = 0;

  /** A result to return instead of running, or null to run the call. */
  before(call: ToolCallRequest): ToolResult | null {
    const key = `${call.name}:${canonical(call.arguments)}`;
    const count = (this.seen.get(key) ?? 0) + 1;
    this.seen.set(key, count);
    if (count >= 3) {
      return toolError(
        'loop_detected',
        `This exact call (${call.name} with the same arguments) was already made twice in this run; it was not run again.`,
        false,
        'Change the arguments, try another approach, or tell the person what is blocking you.',
      );
    }
    return null;
  }

  /** Records a result; returns the reason to stop the run, or null. */
  after(result: ToolResult): string | null {
    if (result.ok) {
      this.lastCode = null;
      this.streak = 0;
      return null;
    }
    const code = result.error.code;
    this.streak = code === this.lastCode ? this.streak + 1 : 1;
    this.lastCode = code;
    if (this.streak >= 3) return `Stopped: three calls in a row failed with the same error (${code}). Last error: ${result.error.message}`;
    return null;
  }
}

/** JSON with sorted keys, so `{"a":1,"b":2}` and `{"b":2,"a":1}` are the same call. */
export function canonical(argumentsText: string): string {
  try {
    return JSON.stringify(sortKeys(JSON.parse(argumentsText)));
  } catch {
    return argumentsText.trim();
  }
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value as object)
        .sort()
        .map((k) => [k, sortKeys((value as Record<string, unknown>)[k])]),
    );
  }
  return value;
}
