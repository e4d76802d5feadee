import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { nextReload } from './testing/nextReload.js';
import { SkillCatalogue } from './skillCatalogue.js';

const temps: string[] = [];
after(() => temps.forEach((d) => rmSync(d, { recursive: true, force: true })));
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'mapwright-skills-'));
  temps.push(d);
  return d;
}

function writeSkill(root: string, name: string, description: string, extra = '', body = `Rules of ${name}.`): void {
  mkdirSync(join(root, name), { recursive: true });
  writeFileSync(join(root, name, 'SKILL.md'), `---\nname: ${name}\ndescription: ${description}\n${extra}---\n${body}\n`);
}

function roots() {
  const base = tempDir();
  const dirs = { builtIn: join(base, 'builtin'), user: join(base, 'home', 'skills'), project: join(base, 'projects', 'skills') };
  mkdirSync(dirs.builtIn, { recursive: true });
  return {
    dirs,
    list: [
      { dir: dirs.builtIn, origin: 'built-in' as const },
      { dir: dirs.user, origin: 'user' as const },
      { dir: dirs.project, origin: 'project' as const },
    ],
  };
}

describe('SkillCatalogue', () => {
  it('loads good skills and reports bad ones by name instead of failing', () => {
    const { dirs, list } = roots();
    writeSkill(dirs.builtIn, 'inspect', 'Read the project.');
    writeSkill(dirs.builtIn, 'Broken', 'Bad name.');
    mkdirSync(join(dirs.builtIn, 'empty-folder'));
    const catalogue = new SkillCatalogue(list);
    assert.deepEqual(catalogue.names(), ['inspect']);
    const problems = catalogue.problems();
    assert.ok(
      problems.some((p) => p.skill === 'Broken' && p.severity === 'error'),
      JSON.stringify(problems),
    );
    assert.ok(problems.some((p) => p.skill === 'empty-folder' && /no SKILL.md/.test(p.message)));
  });

  it('a project skill overrides a user skill of the same name, which overrides a built-in one', () => {
    const { dirs, list } = roots();
    writeSkill(dirs.builtIn, 'style', 'Built-in style.');
    writeSkill(dirs.builtIn, 'layers', 'Built-in layers.');
    writeSkill(dirs.user, 'style', 'User style.');
    writeSkill(dirs.user, 'layers', 'User layers.');
    writeSkill(dirs.project, 'style', 'Project style.');
    const catalogue = new SkillCatalogue(list);
    assert.equal(catalogue.find('style')?.description, 'Project style.');
    assert.equal(catalogue.find('style')?.origin, 'project');
    assert.equal(catalogue.find('layers')?.description, 'User layers.');
    assert.deepEqual(catalogue.names(), ['layers', 'style']);
  });

  it('an invalid override leaves the skill below it in place, and says why', () => {
    const { dirs, list } = roots();
    writeSkill(dirs.builtIn, 'style', 'Built-in style.');
    writeSkill(dirs.user, 'style', 'x'.repeat(2000));
    const catalogue = new SkillCatalogue(list);
    assert.equal(catalogue.find('style')?.origin, 'built-in');
    assert.ok(catalogue.problems().some((p) => p.skill === 'style' && p.origin === 'user' && /at most 1024/.test(p.message)));
  });

  it('reports and drops tool ids that do not exist', () => {
    const { dirs, list } = roots();
    writeSkill(dirs.builtIn, 'layers', 'Layers.', 'metadata:\n  tools: layers.load layers.teleport\n');
    const catalogue = new SkillCatalogue(list, { knownToolIds: () => new Set(['layers.load']) });
    assert.deepEqual(catalogue.find('layers')?.toolIds, ['layers.load']);
    assert.ok(catalogue.problems().some((p) => p.severity === 'warning' && /layers\.teleport/.test(p.message)));
  });

  it('reads only the files listed in references/', () => {
    const { dirs, list } = roots();
    writeSkill(dirs.builtIn, 'processing', 'Processing.');
    mkdirSync(join(dirs.builtIn, 'processing', 'references'));
    writeFileSync(join(dirs.builtIn, 'processing', 'references', 'crs.md'), 'Use UTM.');
    writeFileSync(join(dirs.builtIn, 'secret.txt'), 'not a reference');
    const catalogue = new SkillCatalogue(list);
    assert.deepEqual(catalogue.find('processing')?.references, ['crs.md']);
    assert.equal(catalogue.readReference('processing', 'crs.md'), 'Use UTM.');
    assert.equal(catalogue.readReference('processing', '../../secret.txt'), null);
    assert.equal(catalogue.readReference('nope', 'crs.md'), null);
  });

  it('hot-loads a new skill file, an edit and a removal without a restart', async () => {
    const { dirs, list } = roots();
    mkdirSync(dirs.user, { recursive: true });
    const catalogue = new SkillCatalogue(list, { debounceMs: 50 });
    await catalogue.watch();
    try {
      let reloaded = nextReload(catalogue);
      writeSkill(dirs.user, 'rivers', 'River network rules.');
      await reloaded;
      assert.equal(catalogue.find('rivers')?.description, 'River network rules.');

      reloaded = nextReload(catalogue);
      writeSkill(dirs.user, 'rivers', 'Edited rules.');
      await reloaded;
      assert.equal(catalogue.find('rivers')?.description, 'Edited rules.');

      reloaded = nextReload(catalogue);
      rmSync(join(dirs.user, 'rivers'), { recursive: true });
      await reloaded;
      assert.equal(catalogue.find('rivers'), undefined);
    } finally {
      await catalogue.close();
    }
  });

  it('hot-loads project skills from a skills folder created after start', async () => {
    const { dirs, list } = roots();
    mkdirSync(join(dirs.project, '..'), { recursive: true });
    const catalogue = new SkillCatalogue(list, { debounceMs: 50 });
    await catalogue.watch();
    try {
      const reloaded = nextReload(catalogue);
      writeSkill(dirs.project, 'local-rules', 'Rules of this project.');
      await reloaded;
      // The folder may appear before its file: wait for the catalogue to settle on the skill.
      for (let i = 0; i < 40 && !catalogue.find('local-rules'); i++) await nextReload(catalogue, 100).catch(() => {});
      assert.equal(catalogue.find('local-rules')?.origin, 'project');
    } finally {
      await catalogue.close();
    }
  });
});

describe('skills that come with a plugin', () => {
  it('extra roots load with the fixed ones, and go when they are dropped', () => {
    const { list } = roots();
    const plugin = join(tempDir(), 'terrain', 'skills');
    writeSkill(plugin, 'landslide', 'Maps landslide susceptibility with the terrain plugin.');
    const catalogue = new SkillCatalogue(list);
    assert.ok(!catalogue.names().includes('landslide'));
    catalogue.setExtraRoots([{ dir: plugin, origin: 'user' }]);
    assert.ok(catalogue.names().includes('landslide'));
    catalogue.setExtraRoots([]);
    assert.ok(!catalogue.names().includes('landslide'));
  });
});
