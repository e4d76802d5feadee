import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { prettyJson, tokenizeJson } from './jsonTokens.js';

describe('tokenizeJson', () => {
  it('tells keys from string values and finds numbers and literals', () => {
    const tokens = tokenizeJson(prettyJson({ layer: 'a "b" <c>', n: -1.5e3, ok: true, none: null, list: [1] }));
    const of = (kind: string) => tokens.filter((t) => t.kind === kind).map((t) => t.text);
    assert.deepEqual(of('key'), ['"layer"', '"n"', '"ok"', '"none"', '"list"']);
    assert.deepEqual(of('string'), ['"a \\"b\\" <c>"']);
    assert.deepEqual(of('number'), ['-1500', '1']);
    assert.deepEqual(
      tokenizeJson('2.5e-3').map((t) => t.kind),
      ['number'],
    );
    assert.deepEqual(of('literal'), ['true', 'null']);
  });

  it('gives back exactly the input text', () => {
    for (const text of [prettyJson({ a: [1, { b: 'x\\ny' }], c: 'tail "' }), 'not json at all', '"unterminated']) {
      assert.equal(
        tokenizeJson(text)
          .map((t) => t.text)
          .join(''),
        text,
      );
    }
  });

  it('shows values JSON cannot hold as a dash', () => {
    assert.equal(prettyJson(undefined), '—');
  });
});
