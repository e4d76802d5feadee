import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { describe, it } from 'node:test';
import { assign, comment, join, lit, ref, renderCommand, singleQuoted } from './shellWords.js';

const HOSTILE = [
  "it's",
  '"; rm -rf / #',
  '$(touch /tmp/mapwright-pwned)',
  '`id`',
  'a\nb; echo injected',
  "'\\''",
  '$HOME ${PATH} $1',
  'tab\there',
  '',
  '-rf',
  'ünïcødé ✓',
];

/** What `sh` makes of a rendered command line: each argument printed between brackets. */
function shArgs(line: string): string {
  return execFileSync('sh', ['-c', `set -eu; v='VAR'; for a in ${line}; do printf '[%s]' "$a"; done`], { encoding: 'utf8' });
}

describe('shell words: hostile text stays one inert argument', () => {
  it('every hostile value comes back from sh exactly as it went in', () => {
    for (const text of HOSTILE) assert.equal(shArgs(singleQuoted(text)), `[${text}]`, JSON.stringify(text));
    assert.equal(shArgs(renderCommand(HOSTILE.map(lit))), HOSTILE.map((t) => `[${t}]`).join(''));
  });
  it('joins literals and variables into one word without splitting', () => {
    assert.equal(shArgs(renderCommand([join(ref('v'), lit("/a b'c")), lit('$(x)')])), "[VAR/a b'c][$(x)]");
  });
  it('refuses a variable name that is not one, and NUL', () => {
    assert.throws(() => ref('a;b'));
    assert.throws(() => assign('$(x)', lit('1')));
    assert.throws(() => singleQuoted('a\0b'));
  });
  it('keeps a comment on one line whatever the text holds', () => {
    const line = comment('name\nrm -rf /\r\u2028x');
    assert.equal(line.split('\n').length, 1);
    assert.equal(execFileSync('sh', ['-c', `${line}\nprintf ok`], { encoding: 'utf8' }), 'ok');
  });
});
