import { z } from 'zod';
import { ApprovalMode, type UndoState } from '../../src-shared/domain/toolLayer.js';
import { ToolFailure } from '../../src-shared/tools/toolResult.js';
import { defineCommand, type CommandDefinition } from '../../src-shared/tools/toolSdk.js';
import type { ProjectStore } from '../store/projectStore.js';
import type { PolicyStateStore } from './policyState.js';
import { restoreSnapshot, type UndoData } from './restoreSnapshot.js';

export interface CommandDeps {
  store: ProjectStore;
  /** Reverts edits in a working copy's journal (issue #14). */
  undoData: UndoData;
  policy: PolicyStateStore;
  /** Whether a run is live (undo then would pull layers from under the agent). */
  runIsLive(): boolean;
  /** Starts a run with this text, as if the person had sent it. */
  send(text: string): void;
  /** Tells the renderer(s) and the conversation that the project changed. */
  layersChanged(): void;
  undoChanged(): void;
  note(text: string): void;
}

/**
 * Commands: the GUI's own actions. User only — never offered to the model, and there is no
 * tool that reaches them. They run through the same `entries/trigger` as the panel's tools
 * and the same dispatcher (`ToolDispatcher.runCommand`: validated, audited).
 */
export function buildCommands(d: CommandDeps): CommandDefinition[] {
  const idle = () => {
    if (d.runIsLive()) throw new ToolFailure('not_allowed', 'The agent is working; wait for it to finish or press Stop first.', false);
  };
  const undoLast = defineCommand({
    id: 'commands.undo',
    title: 'Undo last change',
    input: z.object({}),
    async run() {
      idle();
      const last = d.store.snapshots.latest();
      if (!last) throw new ToolFailure('not_allowed', 'Nothing to undo.', false);
      const notes = await restoreSnapshot(d.store, d.undoData, last.id);
      d.layersChanged();
      d.undoChanged();
      d.note([`Undone: ${last.summary}`, ...notes].join(' '));
      return { undone: last.summary };
    },
  });
  const revertTurn = defineCommand({
    id: 'commands.revert_turn',
    title: 'Revert this turn',
    input: z.object({}),
    async run() {
      idle();
      const snaps = d.store.snapshots.lastRun();
      if (!snaps.length) throw new ToolFailure('not_allowed', 'Nothing to revert.', false);
      const notes = await restoreSnapshot(d.store, d.undoData, snaps[0]!.id);
      d.layersChanged();
      d.undoChanged();
      d.note(
        [
          `Reverted the last turn (${snaps.length} change${snaps.length === 1 ? '' : 's'}: ${snaps.map((s) => s.summary).join('; ')})`,
          ...notes,
        ].join(' '),
      );
      return { reverted: snaps.map((s) => s.summary) };
    },
  });
  const setMode = defineCommand({
    id: 'commands.set_mode',
    title: 'Set approval mode',
    input: z.object({ mode: ApprovalMode }),
    async run(args) {
      return d.policy.setMode(args.mode);
    },
  });
  const setAskForReads = defineCommand({
    id: 'commands.set_ask_for_reads',
    title: 'Ask before read tools',
    input: z.object({ value: z.boolean() }),
    async run(args) {
      return d.policy.setAskForReads(args.value);
    },
  });
  const runPlan = defineCommand({
    id: 'commands.run_plan',
    title: 'Run this plan',
    input: z.object({}),
    async run() {
      idle();
      d.policy.setMode('ask');
      d.send('Carry out the plan above now, step by step.');
      return { mode: 'ask' };
    },
  });
  return [undoLast, revertTurn, setMode, setAskForReads, runPlan];
}

export function undoState(store: ProjectStore): UndoState {
  const last = store.snapshots.latest();
  const run = store.snapshots.lastRun();
  return {
    undo: last ? { summary: last.summary, toolId: last.toolId } : null,
    revertTurn: run.length ? { changes: run.length } : null,
  };
}
