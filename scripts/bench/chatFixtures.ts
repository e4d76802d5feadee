/**
 * A long conversation as the app saves it, for the chat benchmarks: turns of a person's
 * request, the assistant's turn calling a tool (empty text + `toolCalls`), the tool card with
 * its validated arguments, summary and result, now and then a notice ("Loaded layer …") or a
 * failed call with a hint, and the assistant's answer. Deterministic (no randomness), so runs
 * compare.
 */
import type { ChatMessage } from '../../src-shared/domain/chat.js';

export type MessageDraft = Omit<ChatMessage, 'seq' | 'conversationId' | 'createdAt'>;

const REQUESTS = [
  'Load the rivers from /data/hydro/rivers.gpkg and show them in blue',
  'Buffer the towns by 5 km and clip the result to the county boundaries',
  'What is the CRS of the DEM? Reproject it to UTM if it is in degrees.',
  'Make a hillshade of the DEM with the sun in the north-west at 45°',
  'How many features does the parcels layer have, and which fields?',
];

const ANSWER =
  'Done. The buffered towns are in a new layer, towns_buffer_5km (EPSG:32617), with 1,204 polygons; ' +
  'I clipped it to the 100 counties, which left 1,187 features. The layer is drawn above the counties ' +
  'with a 60 % opacity fill so the boundaries stay visible. If you want a different distance, say so and ' +
  'I will run it again — the previous output stays on disk in the project outputs folder.';

/** `count` messages, turn after turn (the last turn cut where the count ends). */
export function conversationDrafts(count: number, prefix = 'm'): MessageDraft[] {
  const out: MessageDraft[] = [];
  for (let turn = 0; out.length < count; turn += 1) {
    const id = (part: string) => `${prefix}-${turn}-${part}`;
    const callId = `call_${turn.toString(36)}`;
    const failed = turn % 7 === 3;
    const args = {
      algorithm: 'native:buffer',
      params: { INPUT: `layer-${turn % 13}`, DISTANCE: 5000 + turn, SEGMENTS: 8, DISSOLVE: false, OUTPUT: `towns_buffer_${turn}` },
    };
    out.push({ id: id('user'), role: 'user', text: REQUESTS[turn % REQUESTS.length]! });
    out.push({
      id: id('call'),
      role: 'assistant',
      text: '',
      toolCalls: [{ id: callId, name: 'processing_run', arguments: JSON.stringify(args) }],
    });
    out.push({
      id: id('card'),
      role: 'tool',
      text: '',
      tool: {
        callId,
        toolId: 'processing.run',
        name: 'processing_run',
        title: 'Run a processing algorithm',
        args,
        summary: `Buffer layer-${turn % 13} by ${args.params.DISTANCE} m`,
        status: failed ? 'error' : 'ok',
        durationMs: 180 + (turn % 50) * 7,
        result: failed
          ? {
              ok: false,
              error: {
                code: 'invalid_params',
                message: 'DISTANCE is in metres but layer-3 is in degrees (EPSG:4326).',
                retryable: true,
                hint: 'Reproject first: processing_run {"algorithm":"native:reprojectlayer","params":{"TARGET_CRS":"EPSG:32617"}}',
              },
            }
          : {
              ok: true,
              data: {
                layer: { id: `L${turn}`, name: `towns_buffer_${turn}`, kind: 'vector', feature_count: 1187, crs: 'EPSG:32617' },
                output: `/home/person/projects/untitled-outputs/towns_buffer_${turn}.gpkg`,
              },
            },
      },
    });
    if (turn % 4 === 0)
      out.push({ id: id('notice'), role: 'notice', text: `Loaded layer towns_buffer_${turn} (tool output)`, level: 'info' });
    out.push({ id: id('answer'), role: 'assistant', text: failed ? 'The distance needs a projected layer; reprojecting first.' : ANSWER });
  }
  return out.slice(0, count);
}

/** The same conversation as saved messages (seq 0…n-1), as main sends them. */
export function conversationMessages(count: number, conversationId = 'bench', prefix = 'm'): ChatMessage[] {
  const t0 = Date.parse('2025-01-01T00:00:00Z');
  return conversationDrafts(count, prefix).map((draft, seq) => ({
    ...draft,
    conversationId,
    seq,
    createdAt: new Date(t0 + seq * 1000).toISOString(),
  }));
}
