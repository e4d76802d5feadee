/**
 * Cuts `<think>…</think>` reasoning out of streamed content (Ollama, llama.cpp, LM Studio,
 * hosted R1). A tag may arrive split across chunks at any byte (`<thi` | `nk>`), so the
 * splitter holds back only the tail that could still become a tag and releases it as soon
 * as it cannot. Pure: no I/O, fed strings, returns parts.
 *
 * A `</think>` with no opening tag means the chat template opened the block in the prompt
 * (R1 distills in LM Studio do this): everything before it was reasoning. That is only
 * known late, so the totals are corrected (`visible`/`reasoning`) while the parts already
 * handed out stay as they were; the saved turn uses the totals.
 */

export interface SplitPart {
  kind: 'text' | 'reasoning';
  text: string;
}

export interface ThinkTagSplitter {
  feed(chunk: string): SplitPart[];
  /** The stream ended: whatever was held back, as what it was. */
  end(): SplitPart[];
  /** Text outside the tags so far. */
  readonly visible: string;
  /** Text inside the tags so far. */
  readonly reasoning: string;
  /** Whether any reasoning was found (the endpoint's reasoning shape is `<think>`). */
  readonly sawTags: boolean;
}

const OPEN = '<think>';
const CLOSE = '</think>';

export function createThinkTagSplitter(): ThinkTagSplitter {
  let inside = false;
  let held = '';
  let visible = '';
  let reasoning = '';
  let sawTags = false;
  // After a closing tag the answer usually starts with blank lines: not worth showing.
  let trimNextText = true;

  function push(parts: SplitPart[], kind: SplitPart['kind'], text: string): void {
    let piece = text;
    if (kind === 'text' && trimNextText) {
      piece = piece.replace(/^\s+/, '');
      if (piece === '') return;
      trimNextText = false;
    }
    if (piece === '') return;
    if (kind === 'text') visible += piece;
    else reasoning += piece;
    const last = parts.at(-1);
    if (last && last.kind === kind) last.text += piece;
    else parts.push({ kind, text: piece });
  }

  return {
    feed(chunk) {
      const parts: SplitPart[] = [];
      let rest = held + chunk;
      held = '';
      for (;;) {
        const tags = inside ? [CLOSE] : [OPEN, CLOSE];
        const hit = firstTag(rest, tags);
        if (!hit) {
          const keep = heldTail(rest, tags);
          push(parts, inside ? 'reasoning' : 'text', rest.slice(0, rest.length - keep));
          held = rest.slice(rest.length - keep);
          return parts;
        }
        const before = rest.slice(0, hit.at);
        rest = rest.slice(hit.at + hit.tag.length);
        if (inside) {
          push(parts, 'reasoning', before);
          inside = false;
          trimNextText = true;
        } else if (hit.tag === OPEN) {
          push(parts, 'text', before);
          inside = true;
          sawTags = true;
        } else if (!sawTags) {
          // An orphan closing tag: what came before was reasoning (see the note above).
          push(parts, 'text', before);
          reasoning += visible;
          visible = '';
          sawTags = true;
          trimNextText = true;
        } else {
          // A stray second `</think>` in the answer: keep it as text.
          push(parts, 'text', before + hit.tag);
        }
      }
    },
    end() {
      const parts: SplitPart[] = [];
      push(parts, inside ? 'reasoning' : 'text', held);
      held = '';
      return parts;
    },
    get visible() {
      return visible;
    },
    get reasoning() {
      return reasoning;
    },
    get sawTags() {
      return sawTags;
    },
  };
}

function firstTag(text: string, tags: readonly string[]): { at: number; tag: string } | null {
  let best: { at: number; tag: string } | null = null;
  for (const tag of tags) {
    const at = text.indexOf(tag);
    if (at >= 0 && (best === null || at < best.at)) best = { at, tag };
  }
  return best;
}

/** Length of the longest tail of `text` that is a proper prefix of one of the tags. */
function heldTail(text: string, tags: readonly string[]): number {
  const longest = Math.max(...tags.map((t) => t.length)) - 1;
  for (let n = Math.min(longest, text.length); n > 0; n--) {
    const tail = text.slice(text.length - n);
    if (tags.some((tag) => tag.startsWith(tail))) return n;
  }
  return 0;
}
