import { useCallback, useState } from 'react';
import { useEntryTrigger } from '../bridge/useEntryTrigger.js';
import { parseCellInput } from './cellEdit.js';
import type { Field } from './tableFormat.js';

/** The cell being edited: a feature and one of its fields. */
export interface CellTarget {
  fid: number;
  field: string;
}

export interface CellEdit {
  target: CellTarget | null;
  /** The edit is on its way to main. */
  busy: boolean;
  /** Why the last commit failed (a bad number, or main's refusal); shown in the table. */
  error: string | null;
  begin(target: CellTarget): void;
  cancel(): void;
  /** Sends the typed text as the field's value; the editor closes once main has it. */
  commit(text: string): Promise<void>;
  dismissError(): void;
}

/**
 * Editing one attribute cell (issue #14). The value goes to main as the person's
 * `edit.update_features` call — audited and undoable like any edit — and the table shows it
 * when the layer's data revision changes (useRowPages reads the rows again). On failure the
 * editor stays open with what was typed, so it can be corrected or abandoned with Escape.
 */
export function useCellEdit(layerId: string, fields: readonly Field[]): CellEdit {
  const trigger = useEntryTrigger();
  const [target, setTarget] = useState<CellTarget | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const begin = useCallback((next: CellTarget) => {
    setError(null);
    setTarget(next);
  }, []);
  const cancel = useCallback(() => setTarget(null), []);
  const dismissError = useCallback(() => setError(null), []);

  const commit = useCallback(
    async (text: string) => {
      if (!target) return;
      const type = fields.find((f) => f.name === target.field)?.type ?? 'string';
      const parsed = parseCellInput(text, type);
      if ('error' in parsed) return setError(`${target.field}: ${parsed.error}`);
      setBusy(true);
      setError(null);
      const message = await trigger('edit.update_features', {
        layer: layerId,
        fids: [target.fid],
        set: { [target.field]: parsed.value },
      });
      setBusy(false);
      if (message) setError(message);
      else setTarget(null);
    },
    [target, fields, trigger, layerId],
  );

  return { target, busy, error, begin, cancel, commit, dismissError };
}
