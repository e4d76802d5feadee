import { MAX_MEMORIES, MemoryText, type Memory } from '../../src-shared/domain/memory.js';
import type { MemoryHandle } from '../../src-shared/tools/handles.js';
import { ToolFailure } from '../../src-shared/tools/toolResult.js';
import type { MemoryRepo } from './memoryRepo.js';

export interface MemoryHandleDeps {
  /** Late-bound: the app settings file opens after the tool host; null while it is not open. */
  repo(): MemoryRepo | null;
  /** The open project's file: its key for project memories (read at each call: Save As moves it). */
  project(): string;
  /** After every change, with the whole list as the panel shows it. */
  changed(memories: Memory[]): void;
}

/** The same words in the same order, whatever the case and spacing: kept once. */
const sameText = (a: string, b: string) => a.toLocaleLowerCase() === b.toLocaleLowerCase();

/**
 * The `memory` handle over the app's memory table, scoped to the person and the open project:
 * a memory of another project is "not found" here, whoever asks for it.
 */
export function createMemoryHandle(d: MemoryHandleDeps): MemoryHandle {
  function repo(): MemoryRepo {
    const r = d.repo();
    if (!r) throw new ToolFailure('handler_error', 'Memory is not available: the app settings file is not open.', true);
    return r;
  }
  const list = () => repo().list(d.project());
  function visible(id: string): Memory {
    const found = list().find((m) => m.id === id);
    if (!found)
      throw new ToolFailure('invalid_params', `id: no memory '${id}' for this person and project.`, false, 'memory_list gives the ids.');
    return found;
  }
  const announce = () => d.changed(list());

  return {
    list,
    remember({ scope, text }) {
      const clean = parseText(text);
      const kept = list();
      const same = kept.find((m) => m.scope === scope && sameText(m.text, clean));
      if (same) return { memory: same, already: true };
      if (kept.length >= MAX_MEMORIES)
        throw new ToolFailure(
          'not_allowed',
          `Memory is full (${MAX_MEMORIES} memories): nothing more is kept until some are deleted.`,
          false,
          'Ask the person to delete memories they no longer need in the Memory panel.',
        );
      const memory = repo().add({ scope, project: d.project(), text: clean });
      announce();
      return { memory, already: false };
    },
    update(id, text) {
      visible(id);
      const memory = repo().update(id, parseText(text))!;
      announce();
      return memory;
    },
    remove(id) {
      const memory = visible(id);
      repo().remove(id);
      announce();
      return memory;
    },
  };
}

/** A readable refusal instead of zod's error object (the tool schema checked the same already). */
function parseText(text: string): string {
  const parsed = MemoryText.safeParse(text);
  if (!parsed.success) throw new ToolFailure('invalid_params', `text: ${parsed.error.issues[0]!.message}.`, false);
  return parsed.data;
}
