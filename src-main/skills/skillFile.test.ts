import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseSkillFile, splitFrontmatter } from './skillFile.js';

const file = (frontmatter: string, body = 'Do the thing carefully.') => `---\n${frontmatter}\n---\n${body}\n`;
const valid = (extra = '') => file(`name: demo\ndescription: Demo rules. Use when testing.${extra ? `\n${extra}` : ''}`);

function errors(folder: string, text: string): string[] {
  const r = parseSkillFile(folder, text);
  return r.problems.filter((p) => p.severity === 'error').map((p) => p.message);
}
function warnings(folder: string, text: string): string[] {
  return parseSkillFile(folder, text)
    .problems.filter((p) => p.severity === 'warning')
    .map((p) => p.message);
}

describe('SKILL.md frontmatter validation', () => {
  it('accepts a minimal valid skill and binds tools from metadata.tools', () => {
    const r = parseSkillFile('demo', valid('metadata:\n  tools: inspect.list_layers, layers.load  layers.load'));
    assert.ok(r.ok);
    assert.equal(r.skill.name, 'demo');
    assert.equal(r.skill.body, 'Do the thing carefully.');
    assert.deepEqual(r.skill.toolIds, ['inspect.list_layers', 'layers.load']);
    assert.deepEqual(r.problems, []);
  });

  it('needs frontmatter between --- lines, as a mapping of valid YAML', () => {
    assert.match(errors('demo', 'name: demo\n')[0]!, /must start with YAML frontmatter/);
    assert.match(errors('demo', '---\nname: demo\n')[0]!, /must start with YAML frontmatter/);
    assert.match(errors('demo', file('name: [unclosed'))[0]!, /not valid YAML/);
    assert.match(errors('demo', file('- a\n- b'))[0]!, /must be a YAML mapping/);
  });

  it('reads CRLF files and a BOM', () => {
    const r = parseSkillFile('demo', '\uFEFF---\r\nname: demo\r\ndescription: d\r\n---\r\nbody\r\n');
    assert.ok(r.ok);
    assert.equal(r.skill.body, 'body');
    assert.deepEqual(splitFrontmatter('---\n---\nx'), { yaml: '', body: 'x' });
  });

  it('name: required', () => {
    assert.ok(errors('demo', file('description: d')).some((m) => /'name' is required/.test(m)));
  });

  it('name: at most 64 characters', () => {
    const long = 'a'.repeat(65);
    assert.ok(errors(long, file(`name: ${long}\ndescription: d`)).some((m) => /65 characters; at most 64/.test(m)));
    const ok = 'a'.repeat(64);
    assert.deepEqual(errors(ok, file(`name: ${ok}\ndescription: d`)), []);
  });

  it('name: lowercase letters, digits and single inner hyphens only', () => {
    for (const bad of ['Demo', 'de_mo', 'de mo', '-demo', 'demo-', 'de--mo', 'démo']) {
      assert.ok(
        errors(bad, file(`name: "${bad}"\ndescription: d`)).some((m) => /lowercase letters, digits and single hyphens/.test(m)),
        bad,
      );
    }
    for (const good of ['demo', 'demo-2', 'a1-b2-c3']) assert.deepEqual(errors(good, file(`name: ${good}\ndescription: d`)), [], good);
  });

  it('name: equal to the folder name', () => {
    assert.ok(errors('other', valid()).some((m) => /must equal its folder's name "other"/.test(m)));
  });

  it('description: required and non-blank', () => {
    assert.ok(errors('demo', file('name: demo')).some((m) => /'description' is required/.test(m)));
    assert.ok(errors('demo', file('name: demo\ndescription: "   "')).some((m) => /'description' is required/.test(m)));
  });

  it('description: at most 1024 characters', () => {
    assert.ok(errors('demo', file(`name: demo\ndescription: ${'x'.repeat(1025)}`)).some((m) => /1025 characters; at most 1024/.test(m)));
    assert.deepEqual(errors('demo', file(`name: demo\ndescription: ${'x'.repeat(1024)}`)), []);
  });

  it('compatibility: a string of at most 500 characters; license: a string', () => {
    assert.ok(errors('demo', valid(`compatibility: ${'c'.repeat(501)}`)).some((m) => /at most 500/.test(m)));
    assert.ok(errors('demo', valid('license: [a, b]')).some((m) => /'license' must be a string/.test(m)));
    const r = parseSkillFile('demo', valid('license: MIT\ncompatibility: Mapwright 0.1'));
    assert.ok(r.ok && r.skill.license === 'MIT' && r.skill.compatibility === 'Mapwright 0.1');
  });

  it('metadata: a mapping of strings; tools are tool ids', () => {
    assert.ok(errors('demo', valid('metadata: [a]')).some((m) => /'metadata' must be a mapping/.test(m)));
    assert.ok(errors('demo', valid('metadata:\n  tools: [a.b]')).some((m) => /'metadata.tools' must be a string/.test(m)));
    assert.ok(errors('demo', valid('metadata:\n  tools: layers_load')).some((m) => /"layers_load" is not a tool id/.test(m)));
  });

  it('body: under 500 lines', () => {
    const body = (n: number) => Array.from({ length: n }, (_, i) => `line ${i}`).join('\n');
    assert.ok(errors('demo', file('name: demo\ndescription: d', body(500))).some((m) => /500 lines; keep it under 500/.test(m)));
    assert.deepEqual(errors('demo', file('name: demo\ndescription: d', body(499))), []);
  });

  it('warns, but loads, on unknown fields, allowed-tools and an empty body', () => {
    const text = file('name: demo\ndescription: d\nversion: 2\nallowed-tools: Bash', '');
    const r = parseSkillFile('demo', text);
    assert.ok(r.ok);
    const w = warnings('demo', text);
    assert.ok(w.some((m) => /unknown frontmatter field 'version'/.test(m)));
    assert.ok(w.some((m) => /'allowed-tools' is ignored/.test(m)));
    assert.ok(w.some((m) => /body is empty/.test(m)));
  });

  it('reports every error at once rather than the first only', () => {
    const r = parseSkillFile('x', file('name: Bad_Name\ndescription: ""'));
    assert.equal(r.ok, false);
    assert.ok(r.problems.length >= 3, JSON.stringify(r.problems));
  });
});
