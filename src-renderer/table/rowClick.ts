/** What a click on a table row does to the selection (pure; the table applies the result). */

export interface RowClick {
  fid: number;
  index: number;
  /** Ctrl on Linux/Windows, Cmd on macOS: toggle one row. */
  toggle: boolean;
  /** Shift: the range from the anchor row to this one (with toggle: added to the selection). */
  range: boolean;
}

export interface CurrentSelection {
  /** The layer's selected fids (empty when another layer, or nothing, is selected). */
  fids: ReadonlySet<number>;
  /** Row index of the anchor, when its row is loaded. */
  anchorIndex: number | undefined;
}

export type ClickOutcome =
  | { kind: 'replace'; fids: number[]; anchor: number }
  | { kind: 'toggle'; fid: number }
  | { kind: 'range'; fids: number[]; additive: boolean };

/**
 * Plain click selects the row alone; ctrl/cmd toggles it; shift selects the loaded rows from
 * the anchor to it (ctrl+shift adds them). Without a loaded anchor, shift acts as a plain click:
 * rows between that are not loaded cannot be named, and a silently partial range would mislead.
 */
export function rowClickOutcome(click: RowClick, current: CurrentSelection, fidsBetween: (a: number, b: number) => number[]): ClickOutcome {
  if (click.range && current.anchorIndex !== undefined) {
    return { kind: 'range', fids: fidsBetween(current.anchorIndex, click.index), additive: click.toggle };
  }
  if (click.toggle) return { kind: 'toggle', fid: click.fid };
  return { kind: 'replace', fids: [click.fid], anchor: click.fid };
}
