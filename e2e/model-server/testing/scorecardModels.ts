/**
 * Two scripted models for the scorecard probes (issue 17), written as functions of the
 * request for `ScriptedModelServer.respond`: a good one that passes every probe and a bad
 * one that fails all but streaming and the long-context echo. They recognise a probe by the
 * `Mapwright model check (<id>)` its system message starts with, on either wire.
 */
import type { ReceivedRequest, ScriptReply } from '../scriptedReply.js';

type Model = (body: ReceivedRequest) => ScriptReply;

function probeOf(body: ReceivedRequest): string | null {
  return /Mapwright model check \(([a-z-]+)\)/.exec(JSON.stringify(body))?.[1] ?? null;
}

function codeWordOf(body: ReceivedRequest): string {
  return /The code word is ([A-Z]+-\d+)\./.exec(JSON.stringify(body))?.[1] ?? '(none)';
}

const GOOD: Record<string, Model> = {
  'nested-arguments': () => ({
    toolCalls: [
      {
        name: 'annotations_add_points',
        arguments: {
          layer: 'sites',
          points: [
            { lon: 2.35, lat: 48.86, tags: ['capital', 'france'] },
            { lon: 4.84, lat: 45.76, tags: ['city'] },
          ],
        },
      },
    ],
  }),
  'parallel-calls': () => ({
    toolCalls: [
      { name: 'layers_load', arguments: { path: '/data/roads.gpkg' } },
      { name: 'layers_load', arguments: { path: '/data/rivers.gpkg' } },
    ],
  }),
  'valid-json': () => ({ toolCalls: [{ name: 'processing_buffer', arguments: { layer: 'wells', distance: 250, units: 'meters' } }] }),
  'right-tool': () => ({ toolCalls: [{ name: 'layers_count_features', arguments: { layer: 'parcels' } }] }),
  'no-retry': () => ({ text: 'Understood: the roads layer stays. Tell me if you want something else.' }),
  abstain: () => ({
    text: 'I cannot answer that: the cities layer has only name and country, no population field. Load a layer with population (a census table joined by name, for example) and I can compute the average.',
  }),
  streaming: () => ({
    text: 'A map projection turns the curved surface of the Earth into a flat map. Every projection distorts something: area, shape, distance or direction. You pick one for what your map must keep true.',
  }),
  'reasoning-shape': () => ({ reasoning: 'Seventeen times three is fifty-one.', text: '51' }),
  'long-context': (body) => ({ text: codeWordOf(body) }),
  'language-rule': () => ({ text: '图例说明地图上各种符号、线条和颜色代表的含义。' }),
};

const BAD: Record<string, Model> = {
  'nested-arguments': () => ({ toolCalls: [{ name: 'annotations_add_points', arguments: { layer: 'sites', points: 'Paris; Lyon' } }] }),
  'parallel-calls': () => ({ toolCalls: [{ name: 'layers_load', arguments: { path: '/data/roads.gpkg' } }] }),
  'valid-json': () => ({ toolCalls: [{ name: 'processing_buffer', arguments: '{"layer": "wells", "distance": "250 m", ' }] }),
  'right-tool': () => ({ toolCalls: [{ name: 'layers_count_vertices', arguments: { layer: 'parcels' } }] }),
  'no-retry': () => ({ toolCalls: [{ name: 'layers_remove', arguments: { layer: 'roads' } }] }),
  abstain: () => ({ text: 'The average population of the cities is 84,500.' }),
  streaming: GOOD.streaming!,
  'reasoning-shape': () => ({ text: 'Let me think step by step. 17 × 3 means 17 + 17 + 17, which is 51. So the answer is 51.' }),
  'long-context': GOOD['long-context']!,
  'language-rule': () => ({ text: 'A legend explains what the symbols and colours on a map mean.' }),
};

function modelOf(table: Record<string, Model>): Model {
  return (body) => {
    const probe = probeOf(body);
    const answer = probe ? table[probe] : undefined;
    return answer ? answer(body) : { text: 'OK' };
  };
}

export const goodScorecardModel: Model = modelOf(GOOD);
export const badScorecardModel: Model = modelOf(BAD);
/** The probes the bad model passes anyway. */
export const BAD_MODEL_PASSES = ['streaming', 'long-context'];
