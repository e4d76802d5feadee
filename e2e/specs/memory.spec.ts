import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { offeredTools } from '../support/modelRequests.js';
import { type SharedApp, useAppSession } from '../support/appSession.js';

/**
 * Memory (issue 17) in Chromium: the model loads the memory skill and asks to remember a line;
 * the dialog shows that exact text; once approved the Memory panel lists it and the next
 * request's system prompt carries it; the person edits it and deletes it in the panel, after
 * which requests carry no excerpt at all; the model is never offered `memory_remove` and is
 * refused when it names it anyway.
 */
const HEAD = 'Remembered (memory_recall for more):';
const KEPT = 'Rivers layer is in EPSG:2169';
const EDITED = 'Rivers layer is in EPSG:2169 (LUREF)';

describe('memory in Chromium: the model proposes, the person approves, edits and deletes', () => {
  const session = useAppSession({ homePrefix: 'mapwright-e2e-memory-' });
  let { page, app, model } = {} as SharedApp;
  before(async () => ({ page, app, model } = await session.openApp()));

  const items = () => page.getByTestId('memory-item');
  const systemOf = (i: number) => String(model.requests[i]!.messages[0]!.content);
  async function openPanel() {
    await page.getByTestId('memory-panel-open').click();
    await page.getByTestId('memory-panel').waitFor({ state: 'visible' });
  }
  async function closePanel() {
    await page.getByTestId('memory-close').click();
    await page.getByTestId('memory-panel').waitFor({ state: 'detached' });
  }
  /** A new run answered with one line; returns the system prompt its request carried. */
  async function nextSystemPrompt(text: string): Promise<string> {
    model.reset();
    model.script([{ text: 'Noted.' }]);
    await app.askAgent(text);
    await model.waitForRequests(1);
    await app.waitForRunIdle();
    return systemOf(0);
  }

  it('starts with nothing remembered, and no excerpt in the prompt', async () => {
    await openPanel();
    await page.getByTestId('memory-empty').waitFor({ state: 'visible' });
    await app.screenshot('memory-1-empty');
    await closePanel();
    assert.ok(!(await nextSystemPrompt('hello')).includes(HEAD));
  });

  it('the model loads the memory skill and asks to remember; the dialog shows the exact text', async () => {
    model.reset();
    model.script([
      { toolCalls: [{ name: 'skills_load_skill', arguments: { name: 'memory' } }] },
      { toolCalls: [{ name: 'memory_remember', arguments: { text: `  ${KEPT}\n`, scope: 'project' } }] },
      { text: 'I will remember that.' },
    ]);
    await app.askAgent('remember that the rivers layer is in EPSG:2169');
    const dialog = await app.waitForApproval();
    await app.screenshot('memory-2-dialog');
    assert.ok(dialog.text.includes(`Remember (project): “${KEPT}”`), dialog.text);
    await app.approvePending();
    await app.waitForMessage('assistant', /I will remember that/);
    const [first, afterLoad] = model.requests;
    assert.ok(!offeredTools(first).includes('memory_remember'), 'offered only once the skill is loaded');
    assert.ok(offeredTools(afterLoad).includes('memory_remember') && offeredTools(afterLoad).includes('memory_recall'));
    for (const request of model.requests) assert.ok(!offeredTools(request).includes('memory_remove'), 'never offered');
    // Memory is the person's, not the project's: no Undo step that would do nothing.
    assert.equal(await page.getByTestId('undo-last').isDisabled(), true);
  });

  it('the panel lists it, for this project', async () => {
    await openPanel();
    await items().first().waitFor({ state: 'visible' });
    assert.equal(await items().count(), 1);
    assert.equal(await items().first().getAttribute('data-scope'), 'project');
    assert.equal(await items().first().getByTestId('memory-text').innerText(), KEPT);
    await app.screenshot('memory-3-panel');
    await closePanel();
  });

  it("a new run's request carries the excerpt in its system prompt", async () => {
    const system = await nextSystemPrompt('style the rivers blue');
    assert.ok(system.includes(`${HEAD}\n- ${KEPT}`), system.slice(-300));
  });

  it('the model names memory_remove anyway: refused, and the memory stays', async () => {
    await openPanel();
    const id = await items().first().getAttribute('data-memory-id');
    await closePanel();
    model.reset();
    model.script([{ toolCalls: [{ name: 'memory_remove', arguments: { id } }] }, { text: 'Only you can delete memories.' }]);
    await app.askAgent('forget the rivers note');
    await app.waitForMessage('assistant', /Only you can delete memories/);
    const result = model.requests[1]!.messages.filter((m) => m.role === 'tool').at(-1)!;
    assert.match(String(result.content), /can only be run by the person/);
    await openPanel();
    assert.equal(await items().count(), 1);
  });

  it('the person edits it inline; the next request carries the new text', async () => {
    await items().first().getByTestId('memory-edit').click();
    await items().first().getByTestId('memory-input').fill(EDITED);
    await app.screenshot('memory-4-editing');
    await items().first().getByTestId('memory-save').click();
    await page.waitForFunction(
      (text) => document.querySelector('[data-testid="memory-item"] [data-testid="memory-text"]')?.textContent === text,
      EDITED,
    );
    await closePanel();
    assert.ok((await nextSystemPrompt('rivers again')).includes(`${HEAD}\n- ${EDITED}`));
  });

  it('the person deletes it in the panel; the next request has no excerpt', async () => {
    await openPanel();
    await items().first().getByTestId('memory-delete').click();
    await page.getByTestId('memory-empty').waitFor({ state: 'visible' });
    await app.screenshot('memory-5-deleted');
    await closePanel();
    assert.ok(!(await nextSystemPrompt('style the rivers blue')).includes(HEAD));
    const calls = (await app.auditEntries()).filter((e) => e.toolId === 'memory.remove' || e.toolId === 'memory.edit');
    assert.deepEqual(
      calls.map((e) => `${e.toolId} ${e.outcome}`).sort(),
      ['memory.edit ok', 'memory.remove error', 'memory.remove ok'].sort(),
    );
  });
});
