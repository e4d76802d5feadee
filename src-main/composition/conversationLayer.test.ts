import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { createSkillCatalogue } from './conversationLayer.js';

const temps: string[] = [];
after(() => temps.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('createSkillCatalogue', () => {
  it('reads built-in, user (<home>/skills) and project (beside the project file) skills, and says once what is wrong', () => {
    const home = mkdtempSync(join(tmpdir(), 'mapwright-layer-'));
    temps.push(home);
    const builtInDir = join(import.meta.dirname, '..', '..', 'skills');
    const write = (dir: string, name: string, fm: string) => {
      mkdirSync(join(dir, name), { recursive: true });
      writeFileSync(join(dir, name, 'SKILL.md'), `---\n${fm}\n---\nbody\n`);
    };
    write(join(home, 'skills'), 'style', 'name: style\ndescription: My own style rules.');
    write(join(home, 'skills'), 'Bad', 'name: Bad\ndescription: d');
    write(join(home, 'projects', 'skills'), 'rivers', 'name: rivers\ndescription: Rivers of this project.');
    const lines: string[] = [];
    const catalogue = createSkillCatalogue({
      home,
      projectPath: join(home, 'projects', 'untitled.mapwright'),
      builtInDir,
      report: (l) => lines.push(l),
    });
    assert.equal(catalogue.find('style')?.origin, 'user');
    assert.equal(catalogue.find('rivers')?.origin, 'project');
    assert.equal(catalogue.find('inspect')?.origin, 'built-in');
    catalogue.reload();
    catalogue.reload();
    assert.equal(lines.filter((l) => l.startsWith('Skill Bad (user,')).length, 1, lines.join('\n'));
    assert.match(
      lines.find((l) => l.startsWith('Skill Bad'))!,
      /not loaded: 'name' "Bad" may hold only lowercase/,
    );
  });
});
