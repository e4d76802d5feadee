/**
 * Tells listeners when the tool list really changed: `check()` is called after every plugin
 * sync (a self-test finishing, a panel choice…), the listeners only when the signature of the
 * offered tools (wire names and definition hashes) differs from the last one seen.
 */
export class ToolListWatch {
  private readonly listeners = new Set<() => void>();
  private last: string | null = null;

  constructor(private readonly signature: () => string) {}

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  check(): void {
    const now = this.signature();
    if (now === this.last) return;
    const first = this.last === null;
    this.last = now;
    if (first) return;
    for (const listener of [...this.listeners]) listener();
  }
}
