import { events, type EventName, type EventPayload } from '../../src-shared/bridge/contract.js';

type AnyListener = (payload: unknown) => void;

/**
 * Fan-out of push events to the renderer's listeners, shared by both transports. Payloads are
 * parsed with the contract's schemas on arrival: main is trusted, but a drifted payload caught
 * here is a clear console error instead of a confusing crash deep in a component.
 */
export class EventHub {
  private readonly listeners = new Map<EventName, Set<AnyListener>>();

  on<E extends EventName>(name: E, listener: (payload: EventPayload<E>) => void): () => void {
    let set = this.listeners.get(name);
    if (!set) this.listeners.set(name, (set = new Set()));
    const entry = listener as AnyListener;
    set.add(entry);
    return () => {
      set.delete(entry);
    };
  }

  /** `name` is untrusted text from the transport; unknown names are dropped. */
  dispatch(name: string, payload: unknown): void {
    if (!Object.hasOwn(events, name)) {
      console.error(`[bridge] dropped unknown event "${name}"`);
      return;
    }
    const eventName = name as EventName;
    const parsed = events[eventName].safeParse(payload);
    if (!parsed.success) {
      console.error(`[bridge] dropped "${name}": payload does not match the contract`, parsed.error.issues);
      return;
    }
    for (const listener of [...(this.listeners.get(eventName) ?? [])]) {
      try {
        listener(parsed.data);
      } catch (error) {
        console.error(`[bridge] listener for "${name}" failed`, error);
      }
    }
  }
}
