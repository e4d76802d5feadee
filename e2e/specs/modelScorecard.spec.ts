import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { BAD_MODEL_PASSES, badScorecardModel, goodScorecardModel } from '../model-server/testing/scorecardModels.js';
import { SCORECARD_PROBE_IDS } from '../../src-shared/domain/modelScorecard.js';
import { type SharedApp, useAppSession } from '../support/appSession.js';

/**
 * Issue 17, the model scorecard end to end: from the settings panel a person runs the probe
 * suite against the configured endpoint; the scripted server plays a good model, then a bad
 * one. Each probe shows pass/fail with its evidence; the card is kept per endpoint and shown
 * again when the panel reopens.
 */
describe('the model scorecard in the settings panel', () => {
  const session = useAppSession({ configureModel: false, homePrefix: 'mapwright-e2e-scorecard-' });
  let { page, app, model } = {} as SharedApp;
  before(async () => ({ page, app, model } = await session.openApp()));

  it('given a good model, when the scorecard runs, then all ten probes pass and the card is shown again after reopening', async () => {
    model.respond(goodScorecardModel);
    await app.openSettings();
    await app.fillSettings({ provider: 'custom', wire: 'openai', url: model.url, model: 'good-model', key: '' });
    const card = await app.runScorecard();
    assert.deepEqual(
      card.probes,
      SCORECARD_PROBE_IDS.map((id) => ({ id, pass: true })),
    );
    assert.deepEqual([card.passed, card.total], [10, 10]);
    assert.match(await page.getByTestId('settings-scorecard-score').innerText(), /10\/10 passed/);
    assert.match(await app.scorecardEvidence('parallel-calls'), /^2 call\(s\) in one turn: layers_load/);
    assert.equal(model.requests.length, 10, 'one request per probe');
    await page.getByTestId('settings-scorecard').evaluate((el) => el.scrollIntoView({ block: 'end' }));
    await app.screenshot('scorecard-1-good');

    await app.saveSettings();
    await app.openSettings();
    const again = await app.scorecard();
    assert.deepEqual([again.passed, again.total], [10, 10], 'the saved card shows when the panel reopens');
    await app.closeSettings();
  });

  it('given a bad model, then it fails the right probes with what the model did, and each endpoint keeps its own card', async () => {
    model.reset();
    model.respond(badScorecardModel);
    await app.openSettings();
    await app.fillSettings({ model: 'bad-model' });
    await page.getByTestId('settings-scorecard').waitFor({ state: 'detached' });
    const card = await app.runScorecard();
    assert.deepEqual(
      card.probes.filter((p) => p.pass).map((p) => p.id),
      BAD_MODEL_PASSES,
    );
    assert.deepEqual([card.passed, card.total], [2, 10]);
    assert.match(
      await app.scorecardEvidence('abstain'),
      /gave a number the data cannot hold: “The average population of the cities is 84,500\.”/,
    );
    assert.match(await app.scorecardEvidence('no-retry'), /called again after the rejection: layers_remove/);
    assert.equal(await page.locator('[data-probe-id="valid-json"] .scorecard__mark').getAttribute('aria-label'), 'failed');
    await page.getByTestId('settings-scorecard').evaluate((el) => el.scrollIntoView({ block: 'end' }));
    await app.screenshot('scorecard-2-bad');

    await app.fillSettings({ model: 'good-model' });
    await page.waitForFunction(() => document.querySelector('[data-testid="settings-scorecard"]')?.getAttribute('data-passed') === '10');
    await app.fillSettings({ model: 'bad-model' });
    await page.waitForFunction(() => document.querySelector('[data-testid="settings-scorecard"]')?.getAttribute('data-passed') === '2');
    await app.closeSettings();
  });
});
