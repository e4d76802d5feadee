import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { builtInTools } from '../../tools/index.js';
import { SkillCatalogue } from '../skills/skillCatalogue.js';
import { FIRST_REQUEST_LIMIT, NO_SKILL_PROMPT_LIMIT, PromptSizes } from './promptSizes.js';

const root = join(import.meta.dirname, '..', '..');

describe('prompt sizes (npm run prompt-report)', () => {
  const catalogue = new SkillCatalogue([{ dir: join(root, 'skills'), origin: 'built-in' }]);
  const sizes = new PromptSizes(catalogue, builtInTools);
  const byLabel = new Map(sizes.stages().map((s) => [s.label, sizes.measure(s)]));

  it('keeps the first request (system prompt + tool schemas of the inspect stage) under 10,000 characters', () => {
    const first = byLabel.get('inspect')!;
    assert.ok(first.total < FIRST_REQUEST_LIMIT, `first request is ${first.total} characters`);
    // What is measured is what is sent: the system prompt with the inspect body and real tools.
    assert.ok(first.toolCount >= 8 && first.toolChars > 2000, JSON.stringify(first));
    assert.equal(first.total, first.system + first.toolChars);
  });

  it('keeps the no-skill prompt within its limit and every model tool claimed by a skill', () => {
    assert.ok(byLabel.get('no skill')!.system <= NO_SKILL_PROMPT_LIMIT);
    assert.deepEqual(sizes.unclaimed(), []);
  });
});
