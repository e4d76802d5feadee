import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { ChatMessage } from '../../src-shared/domain/chat.js';
import type { ToolContext, ToolDefinition } from '../../src-shared/tools/toolSdk.js';
import { builtInTools } from '../../tools/index.js';
import { createLoadSkillTool, LOAD_SKILL_ID } from '../../tools/skills/loadSkill.js';
import { ToolRegistry } from '../tool-host/toolRegistry.js';
import { SkillCatalogue } from './skillCatalogue.js';
import { SkillSession } from './skillSession.js';

const temps: string[] = [];
after(() => temps.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** The repo's real skills, plus the tools they bind. */
function setup() {
  const repoSkills = join(import.meta.dirname, '..', '..', 'skills');
  const catalogue = new SkillCatalogue([{ dir: repoSkills, origin: 'built-in' }]);
  const loadSkill = createLoadSkillTool(catalogue);
  const registry = new ToolRegistry([...builtInTools, loadSkill as unknown as ToolDefinition]);
  catalogue.checkToolsAgainst(() => new Set(registry.all().map((t) => t.def.id)));
  return { catalogue, loadSkill, registry };
}

const ctx = { handles: {}, caller: 'model', signal: new AbortController().signal, progress: () => {} } as unknown as ToolContext<never>;

/** The card `runToolCall` saves for a finished call. */
function card(result: unknown, status: 'ok' | 'error' = 'ok'): ChatMessage {
  return {
    id: 'm',
    conversationId: 'c',
    seq: 3,
    role: 'tool',
    text: '',
    createdAt: 'x',
    tool: {
      callId: 'call1',
      toolId: LOAD_SKILL_ID,
      name: 'skills_load_skill',
      title: 'Load skill',
      args: {},
      summary: '',
      status,
      durationMs: 1,
      result:
        status === 'ok' ? { ok: true, data: result } : { ok: false, error: { code: 'invalid_params', message: 'no', retryable: false } },
    },
  };
}

describe('skills_load_skill and the skill session', () => {
  it('the repo skills are valid and bind only tools that exist', () => {
    const { catalogue } = setup();
    assert.deepEqual(catalogue.names(), ['editing', 'inspect', 'layers', 'memory', 'processing', 'style']);
    assert.deepEqual(
      catalogue.problems().filter((p) => p.severity === 'error' || /do not exist/.test(p.message)),
      [],
    );
  });

  it('a run starts with inspect loaded: its tools, skills_load_skill, and no tool of an unloaded skill', () => {
    const { catalogue, registry } = setup();
    const session = new SkillSession(catalogue);
    const offered = session.offeredToolIds(registry);
    assert.ok(offered.has('inspect.list_layers') && offered.has('inspect.layer_info'));
    assert.ok(offered.has(LOAD_SKILL_ID));
    assert.ok(!offered.has('layers.load'), 'layers tools wait for the layers skill');
    assert.ok(!offered.has('processing.run'));
    assert.deepEqual(
      session.preloaded().map((s) => s.name),
      ['inspect'],
    );
  });

  it('load_skill returns the body and its tools; the session then offers them for the rest of the run', async () => {
    const { catalogue, loadSkill, registry } = setup();
    const session = new SkillSession(catalogue);
    const data = (await loadSkill.execute({ name: 'layers' }, ctx)) as { skill: string; instructions: string; tools_added: string[] };
    assert.equal(data.skill, 'layers');
    assert.match(data.instructions, /# Layers/);
    assert.ok(data.tools_added.includes('layers_load'));

    session.noteMessages([card(data)]);
    const offered = session.offeredToolIds(registry);
    for (const id of catalogue.find('layers')!.toolIds) assert.ok(offered.has(id), id);
    assert.ok(!offered.has('processing.run'), 'other skills stay unloaded');
    // Noting the same messages again (every step re-reads the run) changes nothing.
    session.noteMessages([card(data)]);
    assert.equal(session.offeredToolIds(registry).size, offered.size);
  });

  it('a failed load or a reference read does not load the skill', async () => {
    const { catalogue, registry } = setup();
    const session = new SkillSession(catalogue);
    session.noteMessages([card(null, 'error'), card({ skill: 'layers', reference: 'x.md', text: '...' })]);
    assert.ok(!session.offeredToolIds(registry).has('layers.load'));
  });

  it('load_skill refuses an unknown skill, naming the real ones', async () => {
    const { loadSkill } = setup();
    await assert.rejects(
      loadSkill.execute({ name: 'magic' }, ctx),
      (e: Error & { hint?: string }) => /no skill 'magic'/.test(e.message) && /inspect, layers/.test(e.hint ?? ''),
    );
  });

  it('the model sees `name` as an enum of the skills that exist now', () => {
    const { catalogue, registry } = setup();
    const session = new SkillSession(catalogue);
    const tools = session.modelTools(registry.forModel({ offered: session.offeredToolIds(registry) }));
    const load = tools.find((t) => t.name === 'skills_load_skill')!;
    const name = (load.parameters as { properties: { name: { enum: string[] } } }).properties.name;
    assert.deepEqual(name.enum, ['editing', 'inspect', 'layers', 'memory', 'processing', 'style']);
  });

  it('a tool that no skill claims is offered rather than hidden', () => {
    const dir = mkdtempSync(join(tmpdir(), 'mapwright-skills-'));
    temps.push(dir);
    mkdirSync(join(dir, 'inspect'));
    writeFileSync(
      join(dir, 'inspect', 'SKILL.md'),
      '---\nname: inspect\ndescription: d\nmetadata:\n  tools: inspect.list_layers\n---\nbody\n',
    );
    const catalogue = new SkillCatalogue([{ dir, origin: 'built-in' }]);
    const registry = new ToolRegistry(builtInTools);
    const offered = new SkillSession(catalogue).offeredToolIds(registry);
    assert.ok(offered.has('layers.load'), 'no skill claims layers.load here');
  });

  it('reads a reference file on demand', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mapwright-skills-'));
    temps.push(dir);
    mkdirSync(join(dir, 'processing', 'references'), { recursive: true });
    writeFileSync(join(dir, 'processing', 'SKILL.md'), '---\nname: processing\ndescription: d\n---\nbody\n');
    writeFileSync(join(dir, 'processing', 'references', 'crs.md'), 'UTM zones.');
    const catalogue = new SkillCatalogue([{ dir, origin: 'built-in' }]);
    const tool = createLoadSkillTool(catalogue);
    assert.deepEqual(await tool.execute({ name: 'processing', reference: 'crs.md' }, ctx), {
      skill: 'processing',
      reference: 'crs.md',
      text: 'UTM zones.',
    });
    const loaded = (await tool.execute({ name: 'processing' }, ctx)) as { references: string[] };
    assert.deepEqual(loaded.references, ['crs.md']);
    await assert.rejects(tool.execute({ name: 'processing', reference: 'nope.md' }, ctx), /no reference 'nope.md'/);
  });
});
