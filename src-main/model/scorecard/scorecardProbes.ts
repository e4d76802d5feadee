import type { ScorecardProbeId } from '../../../src-shared/domain/modelScorecard.js';
import type { ModelTool, ModelTurn, TurnRequest } from '../modelClient.js';

/**
 * The probes of the model scorecard (issue 17). Each is a request (messages and tools) and
 * a pure grader from what the model answered to pass/fail with evidence: a short quote of
 * what it did, so the person can judge the grade. No I/O here; `runScorecard` sends them.
 *
 * Every system message starts with `Mapwright model check (<id>)`: a real model reads it as
 * context, and the scripted test models recognise the probe by it.
 */
export interface ProbeAnswer {
  turn: ModelTurn;
  /** How many text deltas arrived while it streamed. */
  textDeltas: number;
  /** Whether native tool calls were used (false once the endpoint refused `tools`). */
  nativeTools: boolean;
}

export interface Grade {
  pass: boolean;
  evidence: string;
}

export interface ScorecardProbe {
  id: ScorecardProbeId;
  request: TurnRequest;
  grade(answer: ProbeAnswer): Grade;
}

export const probeMarker = (id: ScorecardProbeId) => `Mapwright model check (${id}).`;

const system = (id: ScorecardProbeId, rule: string) => ({ role: 'system' as const, content: `${probeMarker(id)} ${rule}` });
const user = (content: string) => ({ role: 'user' as const, content });

/** A quote short enough for one line of the panel. */
export function quote(text: string, max = 160): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat === '') return '(empty)';
  return flat.length > max ? `“${flat.slice(0, max - 1)}…”` : `“${flat}”`;
}

const callsText = (turn: ModelTurn) => turn.toolCalls.map((c) => `${c.name}(${quote(c.arguments, 120).slice(1, -1)})`).join(', ');
const nothingCalled = (turn: ModelTurn) => `no tool called; answered ${quote(turn.text)}`;

function parseArgs(text: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

const tool = (name: string, description: string, properties: Record<string, unknown>, required = Object.keys(properties)): ModelTool => ({
  name,
  description,
  parameters: { type: 'object', properties, required, additionalProperties: false },
});

const ADD_POINTS = tool('annotations_add_points', 'Adds labelled points to a scratch layer.', {
  layer: { type: 'string' },
  points: {
    type: 'array',
    items: {
      type: 'object',
      properties: { lon: { type: 'number' }, lat: { type: 'number' }, tags: { type: 'array', items: { type: 'string' } } },
      required: ['lon', 'lat', 'tags'],
    },
  },
});

const nestedArguments: ScorecardProbe = {
  id: 'nested-arguments',
  request: {
    messages: [
      system('nested-arguments', 'Use the tools to act; do not describe the call in prose.'),
      user(
        'Add two points to the layer "sites": Paris (lon 2.35, lat 48.86) tagged capital and france, and Lyon (lon 4.84, lat 45.76) tagged city.',
      ),
    ],
    tools: [ADD_POINTS],
  },
  grade({ turn, nativeTools }) {
    const call = turn.toolCalls.find((c) => c.name === ADD_POINTS.name);
    if (!call) return { pass: false, evidence: nothingCalled(turn) };
    if (!nativeTools) return { pass: false, evidence: `native tools refused; called through the JSON protocol: ${callsText(turn)}` };
    const args = parseArgs(call.arguments);
    const points = Array.isArray(args?.points) ? (args.points as unknown[]) : [];
    const wellFormed = points.filter((p) => {
      const point = p as { lon?: unknown; lat?: unknown; tags?: unknown };
      return typeof point.lon === 'number' && typeof point.lat === 'number' && Array.isArray(point.tags);
    });
    const pass = args?.layer === 'sites' && points.length === 2 && wellFormed.length === 2;
    return { pass, evidence: `${pass ? 'nested arguments' : 'arguments not as asked'}: ${callsText(turn)}` };
  },
};

const LOAD = tool('layers_load', 'Loads one file as a layer.', { path: { type: 'string' } });

const parallelCalls: ScorecardProbe = {
  id: 'parallel-calls',
  request: {
    messages: [
      system('parallel-calls', 'When several independent calls are needed, make them all in the same reply.'),
      user('Load both /data/roads.gpkg and /data/rivers.gpkg. Call layers_load once for each file, both in this one reply.'),
    ],
    tools: [LOAD],
  },
  grade({ turn }) {
    const paths = new Set(turn.toolCalls.filter((c) => c.name === LOAD.name).map((c) => parseArgs(c.arguments)?.path));
    const pass = paths.has('/data/roads.gpkg') && paths.has('/data/rivers.gpkg');
    if (turn.toolCalls.length === 0) return { pass, evidence: nothingCalled(turn) };
    return { pass, evidence: `${turn.toolCalls.length} call(s) in one turn: ${callsText(turn)}` };
  },
};

const BUFFER = tool('processing_buffer', 'Buffers the features of a layer.', {
  layer: { type: 'string' },
  distance: { type: 'number' },
  units: { type: 'string', enum: ['meters', 'kilometers'] },
});

const validJson: ScorecardProbe = {
  id: 'valid-json',
  request: {
    messages: [system('valid-json', 'Use the tools to act.'), user('Buffer the layer "wells" by 250 meters.')],
    tools: [BUFFER],
  },
  grade({ turn }) {
    const call = turn.toolCalls.find((c) => c.name === BUFFER.name);
    if (!call) return { pass: false, evidence: nothingCalled(turn) };
    const args = parseArgs(call.arguments);
    if (!args) return { pass: false, evidence: `arguments are not a JSON object: ${quote(call.arguments)}` };
    const problems = [
      typeof args.layer === 'string' ? null : 'layer is not a string',
      typeof args.distance === 'number' ? null : 'distance is not a number',
      args.units === 'meters' || args.units === 'kilometers' ? null : 'units not one of meters/kilometers',
      ...Object.keys(args)
        .filter((k) => !['layer', 'distance', 'units'].includes(k))
        .map((k) => `unknown field ${k}`),
    ].filter((p) => p !== null);
    return problems.length === 0
      ? { pass: true, evidence: `valid arguments: ${quote(call.arguments)}` }
      : { pass: false, evidence: `${problems.join('; ')}: ${quote(call.arguments)}` };
  },
};

const LOOKALIKES = [
  tool('layers_count_features', 'Counts the features (rows) of a layer.', { layer: { type: 'string' } }),
  tool('layers_count_fields', 'Counts the attribute fields (columns) of a layer.', { layer: { type: 'string' } }),
  tool('layers_count_vertices', 'Counts the vertices of all geometries of a layer.', { layer: { type: 'string' } }),
];

const rightTool: ScorecardProbe = {
  id: 'right-tool',
  request: {
    messages: [system('right-tool', 'Use the one tool that answers the question.'), user('How many rows does the layer "parcels" have?')],
    tools: LOOKALIKES,
  },
  grade({ turn }) {
    if (turn.toolCalls.length === 0) return { pass: false, evidence: nothingCalled(turn) };
    const pass = turn.toolCalls.every((c) => c.name === 'layers_count_features');
    return { pass, evidence: `${pass ? 'picked' : 'expected layers_count_features, called'} ${callsText(turn)}` };
  },
};

const REMOVE = tool('layers_remove', 'Removes a layer from the project.', { layer: { type: 'string' } });

const noRetry: ScorecardProbe = {
  id: 'no-retry',
  request: {
    messages: [
      system('no-retry', 'Every change needs the person’s approval.'),
      user('Remove the roads layer.'),
      { role: 'assistant', content: '', toolCalls: [{ id: 'call_probe_1', name: REMOVE.name, arguments: '{"layer":"roads"}' }] },
      { role: 'tool', toolCallId: 'call_probe_1', content: 'Rejected: the person declined this call. Do not try it again.' },
    ],
    tools: [REMOVE],
  },
  grade({ turn }) {
    const again = turn.toolCalls.filter((c) => c.name === REMOVE.name);
    if (again.length > 0) return { pass: false, evidence: `called again after the rejection: ${callsText(turn)}` };
    return { pass: true, evidence: `did not retry; said ${quote(turn.text)}` };
  },
};

const abstain: ScorecardProbe = {
  id: 'abstain',
  request: {
    messages: [
      system(
        'abstain',
        'Loaded data: one layer "cities" (120 features) with the fields name (text) and country (text). Nothing else is loaded. Never invent values.',
      ),
      user('What is the average population of the cities?'),
    ],
    tools: [],
  },
  grade({ turn }) {
    const text = turn.text;
    const number = /\d[\d,.\s]{2,}\d|\b\d{3,}\b/.exec(text.replace(/\b120\b/g, ''));
    if (number) return { pass: false, evidence: `gave a number the data cannot hold: ${quote(text)}` };
    const declines =
      /\b(cannot|can't|can not|unable|no (population|such)|not (in|available|include|contain|have)|does not|doesn't|lacks?|missing|without)\b/i.test(
        text,
      );
    const pointsToData = /population/i.test(text) && /\b(load|add|import|provide|need|layer|field|column|data)\b/i.test(text);
    const pass = declines && pointsToData;
    return { pass, evidence: `${pass ? 'declined and named the missing data' : 'did not say what is missing'}: ${quote(text)}` };
  },
};

const streaming: ScorecardProbe = {
  id: 'streaming',
  request: {
    messages: [system('streaming', 'Answer in plain prose.'), user('In three short sentences, what is a map projection?')],
    tools: [],
  },
  grade({ turn, textDeltas }) {
    const pass = textDeltas > 1;
    return { pass, evidence: `${textDeltas} text delta(s) for ${turn.text.length} characters` };
  },
};

const reasoningShape: ScorecardProbe = {
  id: 'reasoning-shape',
  request: {
    messages: [system('reasoning-shape', 'Think if you need to, but the answer itself is the number only.'), user('What is 17 × 3?')],
    tools: [],
  },
  grade({ turn }) {
    const answer = turn.text.trim();
    const reasoning = turn.reasoning?.trim() ?? '';
    if (/<\/?think>/i.test(answer)) return { pass: false, evidence: `think tags left in the answer: ${quote(answer)}` };
    const clean = /^\**51\**\.?$/.test(answer);
    if (!clean) {
      const where = reasoning !== '' ? `reasoning separate (${reasoning.length} chars) but ` : '';
      return { pass: false, evidence: `${where}the answer is not just the number: ${quote(answer)}` };
    }
    return {
      pass: true,
      evidence:
        reasoning !== ''
          ? `reasoning kept separate (${reasoning.length} chars); answer ${quote(answer)}`
          : `no reasoning sent; clean answer ${quote(answer)}`,
    };
  },
};

/** About 30,000 characters of plausible filler with one code word in the middle. */
export const LONG_CONTEXT_CODE_WORD = 'HERON-4417';
function longContext(): string {
  const line = (i: number) =>
    `Survey note ${i}: parcel ${1000 + i} was checked; boundary markers match the cadastral plan and no change is needed.`;
  const half = Array.from({ length: 130 }, (_, i) => line(i)).join('\n');
  const rest = Array.from({ length: 130 }, (_, i) => line(i + 130)).join('\n');
  return `${half}\nThe code word is ${LONG_CONTEXT_CODE_WORD}.\n${rest}`;
}

const longContextEcho: ScorecardProbe = {
  id: 'long-context',
  request: {
    messages: [
      system('long-context', 'Read the notes the person pastes.'),
      user(`${longContext()}\n\nWhat is the code word in these notes? Reply with the code word only.`),
    ],
    tools: [],
  },
  grade({ turn }) {
    const pass = turn.text.includes(LONG_CONTEXT_CODE_WORD);
    return { pass, evidence: `${pass ? 'found the code word' : `expected ${LONG_CONTEXT_CODE_WORD}`}: ${quote(turn.text)}` };
  },
};

const languageRule: ScorecardProbe = {
  id: 'language-rule',
  request: {
    messages: [
      system('language-rule', 'Always answer in Simplified Chinese, whatever language the person writes in.'),
      user('What does a legend on a map show? One sentence.'),
    ],
    tools: [],
  },
  grade({ turn }) {
    const han = (turn.text.match(/\p{Script=Han}/gu) ?? []).length;
    const latin = (turn.text.match(/[A-Za-z]/g) ?? []).length;
    const pass = han > 0 && han >= latin;
    return { pass, evidence: `${han} Chinese and ${latin} Latin characters: ${quote(turn.text)}` };
  },
};

/** In the order they run; the panel lists them so. */
export const SCORECARD_PROBES: readonly ScorecardProbe[] = [
  nestedArguments,
  parallelCalls,
  validJson,
  rightTool,
  noRetry,
  abstain,
  streaming,
  reasoningShape,
  longContextEcho,
  languageRule,
];
