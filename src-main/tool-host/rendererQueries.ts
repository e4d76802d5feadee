import { randomUUID } from 'node:crypto';
import type { Emit } from '../../src-shared/bridge/contract.js';
import type { RendererQueryKind } from '../../src-shared/bridge/toolLayerContract.js';
import { ToolFailure } from '../../src-shared/tools/toolResult.js';

interface Waiting {
  resolve(value: unknown): void;
  reject(err: unknown): void;
}

/**
 * Questions only the renderer can answer (`exec: renderer` tools): main asks with an event,
 * the renderer answers with `renderer/answer`. No window, or no answer in time, is a
 * `timeout` error the model can read — never a hang.
 */
export class RendererQueries {
  private readonly waiting = new Map<string, Waiting>();

  constructor(
    private readonly emit: Emit,
    private readonly timeoutMs = 5000,
  ) {}

  ask(kind: RendererQueryKind, signal: AbortSignal): Promise<unknown> {
    const queryId = randomUUID();
    return new Promise<unknown>((resolve, reject) => {
      const done = () => {
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        this.waiting.delete(queryId);
      };
      const timer = setTimeout(() => {
        done();
        reject(new ToolFailure('timeout', `The map did not answer within ${this.timeoutMs / 1000} s (is a window open?)`, true));
      }, this.timeoutMs);
      const onAbort = () => {
        done();
        reject(new ToolFailure('cancelled', 'Stopped', false));
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.waiting.set(queryId, {
        resolve: (v) => (done(), resolve(v)),
        reject: (e) => (done(), reject(e)),
      });
      this.emit('renderer/query-requested', { queryId, kind });
    });
  }

  answer(queryId: string, ok: boolean, value: unknown, error: string | undefined): boolean {
    const w = this.waiting.get(queryId);
    if (!w) return false;
    if (ok) w.resolve(value);
    else w.reject(new ToolFailure('handler_error', `The map could not answer: ${error ?? 'unknown error'}`, true));
    return true;
  }
}
