/**
 * The model scorecard (issue 17) through the bridge methods of the real services, against
 * the scripted server playing a good and a bad model: every probe graded with evidence,
 * progress pushed probe by probe, the card saved per endpoint and read back after a restart.
 */
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { after, before, beforeEach, describe, it } from 'node:test';
import { startScriptedModelServer, type ScriptedModelServer } from '../../e2e/model-server/scriptedModelServer.js';
import { BAD_MODEL_PASSES, badScorecardModel, goodScorecardModel } from '../../e2e/model-server/testing/scorecardModels.js';
import { SCORECARD_PROBE_IDS, type Scorecard, type ScorecardProgress } from '../../src-shared/domain/modelScorecard.js';
import { startApp } from '../composition/testApp.js';

type App = Awaited<ReturnType<typeof startApp>>;

describe('model scorecard through the services', () => {
  let model: ScriptedModelServer;
  const apps: App[] = [];
  const homes = new Set<string>();
  before(async () => {
    model = await startScriptedModelServer();
  });
  beforeEach(() => model.reset());
  after(async () => {
    for (const app of apps) await app.services.close().catch(() => undefined);
    for (const home of homes) rmSync(home, { recursive: true, force: true });
    await model.close();
  });
  const open = async (home?: string) => {
    const app = await startApp(null, home);
    apps.push(app);
    homes.add(app.home);
    return app;
  };
  const call = <T>(app: App, method: string, params: object = {}) => app.services.invoke(method, params) as Promise<T>;
  const draft = (name: string, wire: 'openai' | 'anthropic' = 'openai') => ({
    provider: 'custom',
    wire,
    url: model.url,
    model: name,
    thinkingBudget: null,
  });
  const byId = (card: Scorecard) => Object.fromEntries(card.results.map((r) => [r.id, r]));

  it('given a good model, all ten probes pass with evidence, progress comes probe by probe, and the card survives a restart', async () => {
    model.respond(goodScorecardModel);
    const app = await open();
    const card = await call<Scorecard>(app, 'settings/run-scorecard', draft('good-model'));
    assert.deepEqual(
      card.results.filter((r) => !r.pass).map((r) => `${r.id}: ${r.evidence}`),
      [],
    );
    assert.equal(card.passed, 10);
    assert.equal(card.total, 10);
    assert.deepEqual(
      card.results.map((r) => r.id),
      [...SCORECARD_PROBE_IDS],
    );
    const results = byId(card);
    assert.match(results['parallel-calls']!.evidence, /^2 call\(s\) in one turn/);
    assert.match(results['reasoning-shape']!.evidence, /reasoning kept separate/);
    assert.match(results['long-context']!.evidence, /HERON-4417/);
    assert.equal(model.requests.length, 10, 'one request per probe');
    const progress = app.events.filter((e) => e.name === 'settings/scorecard-progressed').map((e) => e.payload as ScorecardProgress);
    assert.deepEqual(
      progress.map((p) => `${p.done}/${p.total} ${p.result.id}`),
      SCORECARD_PROBE_IDS.map((id, i) => `${i + 1}/10 ${id}`),
    );

    await app.services.close();
    const again = await open(app.home);
    const saved = await call<Scorecard | null>(again, 'settings/get-scorecard', {
      provider: 'custom',
      wire: 'openai',
      url: `${model.url}/`,
      model: 'good-model',
    });
    assert.deepEqual(saved, card, 'read back after a restart, under the normalised URL');
    const other = await call<Scorecard | null>(again, 'settings/get-scorecard', { ...draft('another-model'), thinkingBudget: undefined });
    assert.equal(other, null, 'kept per endpoint');
  });

  it('given a bad model, it fails the right probes, each with what the model did', async () => {
    model.respond(badScorecardModel);
    const app = await open();
    const card = await call<Scorecard>(app, 'settings/run-scorecard', draft('bad-model'));
    assert.deepEqual(
      card.results.filter((r) => r.pass).map((r) => r.id),
      BAD_MODEL_PASSES,
    );
    assert.equal(card.passed, 2);
    const results = byId(card);
    const evidence = (id: string) => results[id]!.evidence;
    assert.match(evidence('nested-arguments'), /arguments not as asked: annotations_add_points\(.*Paris; Lyon/);
    assert.match(evidence('parallel-calls'), /^1 call\(s\) in one turn/);
    assert.match(evidence('valid-json'), /not a JSON object/);
    assert.match(evidence('right-tool'), /called layers_count_vertices/);
    assert.match(evidence('no-retry'), /called again after the rejection/);
    assert.match(evidence('abstain'), /84,500/);
    assert.match(evidence('reasoning-shape'), /not just the number: “Let me think/);
    assert.match(evidence('language-rule'), /^0 Chinese/);
    const saved = await call<Scorecard | null>(app, 'settings/get-scorecard', { ...draft('bad-model'), thinkingBudget: undefined });
    assert.equal(saved?.passed, 2);
  });

  it('a transport error fails that probe with the error as evidence and the suite goes on', async () => {
    model.respond((body) =>
      JSON.stringify(body).includes('Mapwright model check (abstain)')
        ? { status: 400, errorBody: { error: { message: 'context window exceeded (scripted)', type: 'invalid_request_error' } } }
        : goodScorecardModel(body),
    );
    const app = await open();
    const card = await call<Scorecard>(app, 'settings/run-scorecard', draft('flaky-model'));
    assert.equal(card.passed, 9);
    const abstain = byId(card).abstain!;
    assert.equal(abstain.pass, false);
    assert.match(abstain.evidence, /^error: .*context window exceeded \(scripted\)/);
  });

  it('speaks the Anthropic wire too: the good model passes there as well', async () => {
    model.respond(goodScorecardModel);
    const app = await open();
    const card = await call<Scorecard>(app, 'settings/run-scorecard', draft('claude-good', 'anthropic'));
    assert.deepEqual(
      card.results.filter((r) => !r.pass).map((r) => `${r.id}: ${r.evidence}`),
      [],
    );
    assert.equal(model.requestWires[0], 'anthropic');
  });
});
