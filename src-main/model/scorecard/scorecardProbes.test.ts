import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SCORECARD_PROBE_IDS, type ScorecardProbeId } from '../../../src-shared/domain/modelScorecard.js';
import type { ModelTurn } from '../modelClient.js';
import { LONG_CONTEXT_CODE_WORD, probeMarker, SCORECARD_PROBES, type ProbeAnswer } from './scorecardProbes.js';

const probe = (id: ScorecardProbeId) => SCORECARD_PROBES.find((p) => p.id === id)!;
const call = (name: string, args: object | string) => ({
  id: `call_${name}`,
  name,
  arguments: typeof args === 'string' ? args : JSON.stringify(args),
});
function answer(turn: Partial<ModelTurn>, extra: Partial<Omit<ProbeAnswer, 'turn'>> = {}): ProbeAnswer {
  return {
    turn: { text: '', toolCalls: [], stopReason: 'stop', usage: null, ...turn },
    textDeltas: 5,
    nativeTools: true,
    ...extra,
  };
}
const grade = (id: ScorecardProbeId, turn: Partial<ModelTurn>, extra?: Partial<Omit<ProbeAnswer, 'turn'>>) =>
  probe(id).grade(answer(turn, extra));

describe('scorecard probes', () => {
  it('are the ten of the contract, in order, each marked in its system message', () => {
    assert.deepEqual(
      SCORECARD_PROBES.map((p) => p.id),
      [...SCORECARD_PROBE_IDS],
    );
    for (const p of SCORECARD_PROBES) {
      const first = p.request.messages[0];
      assert.equal(first?.role, 'system');
      assert.ok(first?.content.startsWith(probeMarker(p.id)), p.id);
    }
  });

  it('nested arguments: passes two well-formed points; fails a flattened array, no call, or the JSON protocol', () => {
    const points = [
      { lon: 2.35, lat: 48.86, tags: ['capital'] },
      { lon: 4.84, lat: 45.76, tags: ['city'] },
    ];
    const good = grade('nested-arguments', { toolCalls: [call('annotations_add_points', { layer: 'sites', points })] });
    assert.equal(good.pass, true, good.evidence);
    assert.match(good.evidence, /annotations_add_points\(.*"lon":2\.35/);
    const flat = grade('nested-arguments', { toolCalls: [call('annotations_add_points', { layer: 'sites', points: 'Paris; Lyon' })] });
    assert.equal(flat.pass, false);
    assert.match(flat.evidence, /not as asked.*Paris; Lyon/);
    assert.match(grade('nested-arguments', { text: 'Done!' }).evidence, /no tool called; answered “Done!”/);
    const json = grade(
      'nested-arguments',
      { toolCalls: [call('annotations_add_points', { layer: 'sites', points })] },
      { nativeTools: false },
    );
    assert.equal(json.pass, false);
    assert.match(json.evidence, /JSON protocol/);
  });

  it('parallel calls: passes both files in one turn; fails one call', () => {
    const both = [call('layers_load', { path: '/data/roads.gpkg' }), call('layers_load', { path: '/data/rivers.gpkg' })];
    assert.equal(grade('parallel-calls', { toolCalls: both }).pass, true);
    const one = grade('parallel-calls', { toolCalls: both.slice(0, 1) });
    assert.equal(one.pass, false);
    assert.match(one.evidence, /^1 call\(s\) in one turn: layers_load/);
  });

  it('valid JSON: passes arguments of the schema; fails broken JSON, wrong types and unknown fields', () => {
    assert.equal(
      grade('valid-json', { toolCalls: [call('processing_buffer', { layer: 'wells', distance: 250, units: 'meters' })] }).pass,
      true,
    );
    const broken = grade('valid-json', { toolCalls: [call('processing_buffer', '{"layer": "wells", "distance": ')] });
    assert.equal(broken.pass, false);
    assert.match(broken.evidence, /not a JSON object/);
    const typed = grade('valid-json', {
      toolCalls: [call('processing_buffer', { layer: 'wells', distance: '250 m', units: 'feet', x: 1 })],
    });
    assert.equal(typed.pass, false);
    assert.match(typed.evidence, /distance is not a number; units not one of meters\/kilometers; unknown field x/);
  });

  it('right tool: passes the feature count; fails a look-alike', () => {
    assert.equal(grade('right-tool', { toolCalls: [call('layers_count_features', { layer: 'parcels' })] }).pass, true);
    const wrong = grade('right-tool', { toolCalls: [call('layers_count_vertices', { layer: 'parcels' })] });
    assert.equal(wrong.pass, false);
    assert.match(wrong.evidence, /expected layers_count_features, called layers_count_vertices/);
  });

  it('no retry: passes words after the rejection; fails calling the rejected tool again', () => {
    assert.equal(grade('no-retry', { text: 'Understood, the layer stays.' }).pass, true);
    const again = grade('no-retry', { toolCalls: [call('layers_remove', { layer: 'roads' })] });
    assert.equal(again.pass, false);
    assert.match(again.evidence, /called again after the rejection: layers_remove/);
  });

  it('abstain: passes a refusal that names the missing data; fails an invented number or a vague answer', () => {
    const good = grade('abstain', { text: 'I cannot: the cities layer has no population field. Load a layer with population first.' });
    assert.equal(good.pass, true, good.evidence);
    const invented = grade('abstain', { text: 'The average population is 84,500.' });
    assert.equal(invented.pass, false);
    assert.match(invented.evidence, /gave a number.*84,500/);
    assert.equal(grade('abstain', { text: 'Sorry, I cannot help.' }).pass, false);
  });

  it('streaming: passes several deltas; fails one', () => {
    assert.equal(grade('streaming', { text: 'abc' }, { textDeltas: 3 }).pass, true);
    const once = grade('streaming', { text: 'abc' }, { textDeltas: 1 });
    assert.equal(once.pass, false);
    assert.equal(once.evidence, '1 text delta(s) for 3 characters');
  });

  it('reasoning shape: passes reasoning apart or a clean answer alone; fails reasoning in the answer', () => {
    assert.match(grade('reasoning-shape', { text: '51', reasoning: 'times' }).evidence, /reasoning kept separate \(5 chars\)/);
    assert.match(grade('reasoning-shape', { text: '51' }).evidence, /no reasoning sent; clean answer “51”/);
    const leaked = grade('reasoning-shape', { text: 'Let me think. 17 × 3 = 51. So 51.' });
    assert.equal(leaked.pass, false);
    assert.match(leaked.evidence, /not just the number/);
    assert.equal(grade('reasoning-shape', { text: '<think>hm</think>51' }).pass, false);
  });

  it('long context: about 30,000 characters with the code word in the middle; passes its echo only', () => {
    const user = probe('long-context').request.messages[1]!.content;
    assert.ok(user.length > 28_000 && user.length < 40_000, String(user.length));
    const at = user.indexOf(LONG_CONTEXT_CODE_WORD) / user.length;
    assert.ok(at > 0.4 && at < 0.6, String(at));
    assert.equal(grade('long-context', { text: LONG_CONTEXT_CODE_WORD }).pass, true);
    assert.equal(grade('long-context', { text: 'I did not see one.' }).pass, false);
  });

  it('language rule: passes an answer in Chinese; fails one in English', () => {
    assert.equal(grade('language-rule', { text: '图例说明地图符号的含义。' }).pass, true);
    const english = grade('language-rule', { text: 'A legend explains the symbols.' });
    assert.equal(english.pass, false);
    assert.match(english.evidence, /^0 Chinese and \d+ Latin characters/);
  });
});
