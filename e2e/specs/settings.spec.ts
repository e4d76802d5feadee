import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { type SharedApp, useAppSession } from '../support/appSession.js';

/**
 * Issue 5 end to end: a person configures a model in the settings panel (no environment
 * variables), tests the connection, chats with streaming, reasoning and a tool call, and
 * presses Stop mid-stream. The scripted model server speaks the Anthropic Messages wire
 * here, then an OpenAI-compatible server that refuses native tools.
 */
describe('model settings, streaming with reasoning, a tool call and Stop', () => {
  const session = useAppSession({ configureModel: false, homePrefix: 'mapwright-e2e-settings-' });
  let { page, app, model } = {} as SharedApp;
  before(async () => ({ page, app, model } = await session.openApp()));

  it('given no model, when Anthropic is configured in the panel and tested, then it is saved and the key never comes back', async () => {
    assert.equal((await app.modelStatus()).configured, false);
    await app.openSettings();
    assert.match(await page.getByTestId('settings-key-storage').innerText(), /only your user account can read \(mode 600\)/);
    model.setModels(['claude-scripted-2', 'claude-scripted-1']);
    await app.fillSettings({ provider: 'anthropic', url: model.url, key: 'sk-ant-e2e-key', thinkingBudget: '2048' });
    assert.deepEqual(await app.listModels(), ['claude-scripted-1', 'claude-scripted-2']);
    await app.fillSettings({ model: 'claude-scripted-1' });

    model.script([{ reasoning: 'A connection test: answer OK.', text: 'OK' }]);
    const report = await app.testConnection();
    await app.screenshot('settings-1-tested');
    assert.equal(report.ok, true, report.message);
    assert.match(report.message, /claude-scripted-1 answered in \d+ ms/);
    assert.deepEqual([report.tools, report.streaming, report.reasoning], ['native', 'yes', 'anthropic-thinking']);
    assert.equal(model.requestWires[0], 'anthropic');
    assert.equal(model.requestHeaders[0]?.['x-api-key'], 'sk-ant-e2e-key');

    await app.saveSettings();
    await page.waitForFunction(() => document.querySelector('[data-model-configured]')?.getAttribute('data-model-configured') === 'true');
    assert.match((await app.modelStatus()).text, /claude-scripted-1/);

    await app.openSettings();
    assert.match(await page.getByTestId('settings-key-status').innerText(), /A key is set/);
    assert.equal(await page.getByTestId('settings-key').inputValue(), '');
    assert.ok(!(await page.content()).includes('sk-ant-e2e-key'), 'the key is nowhere in the page');
    assert.equal(await page.getByTestId('settings-thinking-budget').inputValue(), '2048');
    await app.closeSettings();
  });

  it('when the model thinks, writes and calls a tool, then the reasoning shows live, folds when the answer starts, and the tool runs', async () => {
    model.reset();
    const reasoning =
      'The person asks what is loaded. I have a tool that lists layers, so I call it before answering, rather than guessing.';
    model.script([
      {
        reasoning,
        signature: 'sig-e2e-1',
        text: 'Let me check the layer list.',
        toolCalls: [{ name: 'inspect_list_layers', arguments: {} }],
        chunkSize: 3,
        delayMs: 25,
      },
      { text: 'No layers are loaded yet. Drop a GeoPackage or ask me to load one.', chunkSize: 4, delayMs: 15 },
    ]);
    await app.askAgent('what layers are loaded?');
    await page.getByTestId('reasoning-block').waitFor({ timeout: 10_000 });
    const growing = await app.reasoningBlock();
    assert.equal(growing?.state, 'open', 'open while it grows');
    assert.equal(growing?.growing, true);
    await app.screenshot('settings-2-reasoning-live');
    await app.waitForMessage('assistant', /Let me check the layer list\./);
    await app.waitForMessage('tool', /./);
    await app.waitForMessage('assistant', /No layers are loaded yet/);
    await app.waitForRunIdle();
    const folded = await app.reasoningBlock();
    assert.equal(folded?.state, 'folded', 'folded once the answer started');
    await app.screenshot('settings-3-answered');

    // The same run sent the signed thinking block back, first and verbatim.
    const second = model.requests[1] as unknown as { messages: { role: string; content: { type: string; signature?: string }[] }[] };
    const assistant = second.messages.find((m) => m.role === 'assistant')!;
    assert.deepEqual(
      assistant.content.map((b) => b.type),
      ['thinking', 'text', 'tool_use'],
    );
    assert.equal(assistant.content[0]?.signature, 'sig-e2e-1');
    assert.deepEqual((model.requests[0] as unknown as { thinking: unknown }).thinking, { type: 'enabled', budget_tokens: 2048 });

    // The person can open it again by hand.
    await page.getByTestId('reasoning-toggle').last().click();
    assert.equal((await app.reasoningBlock())?.state, 'open');
    assert.match((await app.reasoningBlock())?.text ?? '', /lists layers/);
  });

  it('when Stop is pressed mid-stream, then the chat is consistent: what was shown is what was saved, and reasoning is gone after a reload', async () => {
    model.reset();
    const slow = 'Natural Earth provides public domain vector data at three scales. '.repeat(20);
    model.script([{ reasoning: 'Long answer ahead.', text: slow, chunkSize: 3, delayMs: 40 }]);
    await app.askAgent('tell me about Natural Earth');
    await app.waitForMessage('assistant', /Natural Earth provides/);
    await page.getByTestId('stop-run').click();
    await app.waitForMessage('notice', /Stopped/);
    await app.waitForRunIdle();
    await page.waitForTimeout(300);
    const shown = await app.transcript();
    const cut = shown.findLast((m) => m.role === 'assistant')!;
    assert.ok(cut.text.length < slow.length, 'the stopped reply is partial');

    await app.reload();
    await app.waitForMessage('notice', /Stopped/);
    const reloaded = await app.transcript();
    assert.deepEqual(reloaded, shown, 'the chat after a reload reads as before');
    assert.equal(await page.getByTestId('reasoning-block').count(), 0, 'reasoning is never saved');
    await app.screenshot('settings-4-stopped-reloaded');

    model.script([{ text: 'Ready again.' }]);
    await app.askAgent('hello again');
    await app.waitForMessage('assistant', /Ready again\./);
  });

  it('given an OpenAI-compatible server that refuses tools, then the test says JSON in the prompt and a tool call still works', async () => {
    model.reset();
    model.behave({ refuseTools: true });
    await app.openSettings();
    await app.fillSettings({ provider: 'custom', wire: 'openai', url: model.url, model: 'gemma3:4b', key: '' });
    model.script([{ reasoning: 'Just say OK.', reasoningShape: 'think-tags', text: 'OK' }]);
    const report = await app.testConnection();
    await app.screenshot('settings-5-json-tools');
    assert.equal(report.ok, true, report.message);
    assert.deepEqual([report.tools, report.streaming, report.reasoning], ['json', 'yes', 'think-tags']);
    assert.match(await page.getByTestId('settings-test-result').innerText(), /Native tool calls refused/);
    await app.saveSettings();

    model.script([
      {
        reasoning: 'List first.',
        reasoningShape: 'think-tags',
        text: 'Checking.\n{"tool": "inspect_list_layers", "arguments": {}}',
        chunkSize: 5,
        delayMs: 10,
      },
      { text: 'Still no layers.' },
    ]);
    await app.askAgent('any layers now?');
    await app.waitForMessage('assistant', /Still no layers\./);
    const messages = await app.messages();
    const last = messages.slice(-3);
    assert.deepEqual(
      last.map((m) => m.role),
      ['assistant', 'tool', 'assistant'],
    );
    assert.match(last[0]!.text, /Checking\./);
    assert.doesNotMatch(last[0]!.text, /"tool"/, 'the call is not shown as JSON');
    assert.ok(
      model.requests.slice(-2).every((r) => !('tools' in r)),
      'remembered: no native tools offered',
    );
  });
});
