import { randomUUID } from 'node:crypto';
import type { Emit } from '../../src-shared/bridge/contract.js';
import type { RendererQueryKind } from '../../src-shared/bridge/toolLayerContract.js';
import type { BBox } from '../../src-shared/domain/layer.js';
import type { PrintSpec } from '../../src-shared/domain/printLayout.js';
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

  /**
   * `print` travels with a `print_layout` question, `bbox` with a `fit_bounds` one; `timeoutMs`
   * lets a slow answer (composing a page waits for the map to settle) have longer than the default.
   */
  ask(
    kind: RendererQueryKind,
    signal: AbortSignal,
    options: { print?: PrintSpec; bbox?: BBox; timeoutMs?: number } = {},
  ): Promise<unknown> {
    const queryId = randomUUID();
    const timeoutMs = options.timeoutMs ?? this.timeoutMs;
    return new Promise<unknown>((resolve, reject) => {
      const done = () => {
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        this.waiting.delete(queryId);
      };
      const timer = setTimeout(() => {
        done();
        reject(new ToolFailure('timeout', `The map did not answer within ${timeoutMs / 1000} s (is a window open?)`, true));
      }, timeoutMs);
      const onAbort = () => {
        done();
        reject(new ToolFailure('cancelled', 'Stopped', false));
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.waiting.set(queryId, {
        resolve: (v) => (done(), resolve(v)),
        reject: (e) => (done(), reject(e)),
      });
      this.emit('renderer/query-requested', {
        queryId,
        kind,
        ...(options.print ? { print: options.print } : {}),
        ...(options.bbox ? { bbox: options.bbox } : {}),
      });
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
