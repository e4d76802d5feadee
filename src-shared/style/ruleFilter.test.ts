import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { filterExpression, filterFields, filterSql, FilterSyntaxError, parseFilter } from './ruleFilter.js';
import { loadStyleSpec, type StyleSpecKit } from './testing/styleSpecKit.js';

describe('parseFilter', () => {
  it('reads comparisons, and/or/not with SQL precedence, in, is null, quoted names', () => {
    assert.deepEqual(parseFilter('POP_EST > 1000000'), { kind: 'compare', field: 'POP_EST', op: '>', value: 1000000 });
    assert.deepEqual(parseFilter("CONTINENT = 'Côte d''Ivoire'"), {
      kind: 'compare',
      field: 'CONTINENT',
      op: '==',
      value: "Côte d'Ivoire",
    });
    assert.deepEqual(parseFilter('"name long" <> -1.5e3'), { kind: 'compare', field: 'name long', op: '!=', value: -1500 });
    const tree = parseFilter('a = 1 or b = 2 and not c is null');
    assert.deepEqual(tree, {
      kind: 'any',
      of: [
        { kind: 'compare', field: 'a', op: '==', value: 1 },
        {
          kind: 'all',
          of: [
            { kind: 'compare', field: 'b', op: '==', value: 2 },
            { kind: 'not', of: { kind: 'null', field: 'c', negated: false } },
          ],
        },
      ],
    });
    assert.deepEqual(parseFilter("(a = 1 or b = 2) and ISO NOT IN ('FR', 'DE')"), {
      kind: 'all',
      of: [
        {
          kind: 'any',
          of: [
            { kind: 'compare', field: 'a', op: '==', value: 1 },
            { kind: 'compare', field: 'b', op: '==', value: 2 },
          ],
        },
        { kind: 'in', field: 'ISO', values: ['FR', 'DE'], negated: true },
      ],
    });
    assert.deepEqual(parseFilter('flag = TRUE and x is not null'), {
      kind: 'all',
      of: [
        { kind: 'compare', field: 'flag', op: '==', value: true },
        { kind: 'null', field: 'x', negated: true },
      ],
    });
    assert.deepEqual(filterFields(parseFilter('a > 1 and (b = \'x\' or a < 0) and not "c d" is null')), ['a', 'b', 'c d']);
  });

  it('rejects anything outside the subset, saying where', () => {
    const bad: [string, RegExp][] = [
      ['', /empty/],
      ['POP >', /expected a number/],
      ['POP 5', /expected a comparison/],
      ["NAME = 'open", /unclosed/],
      ['a = 1 b = 2', /unexpected text at position 7/],
      ['a = 1; DROP TABLE x', /unexpected ';'/],
      ['(a = 1', /expected '\)'/],
      ['a in (1, 2', /expected '\)'/],
      ['and = 1', /expected a field name/],
      ['a = b', /expected a number/],
      ['a is 5', /expected null/],
    ];
    for (const [text, message] of bad) {
      assert.throws(
        () => parseFilter(text),
        (err: Error) => err instanceof FilterSyntaxError && message.test(err.message),
        text,
      );
    }
  });

  it('translates to SQLite WHERE syntax with quoting', () => {
    assert.equal(
      filterSql(parseFilter(`"a""b" = 'it''s' or c in (1, 2) and d is not null`)),
      `(("a""b" = 'it''s') OR (("c" IN (1, 2)) AND ("d" IS NOT NULL)))`,
    );
  });
});

describe('filterExpression in MapLibre', () => {
  let spec: StyleSpecKit | null = null;
  before(async () => {
    spec = await loadStyleSpec();
  });

  const cases: { filter: string; yes: Record<string, unknown>[]; no: Record<string, unknown>[] }[] = [
    { filter: 'POP_EST > 1000000', yes: [{ POP_EST: 2e6 }], no: [{ POP_EST: 5 }, { POP_EST: null }, {}, { POP_EST: 'many' }] },
    {
      filter: "CONTINENT = 'Africa' and POP_EST >= 50000000",
      yes: [{ CONTINENT: 'Africa', POP_EST: 5e7 }],
      no: [
        { CONTINENT: 'Africa', POP_EST: 1 },
        { CONTINENT: 'Asia', POP_EST: 1e9 },
      ],
    },
    {
      filter: "ISO in ('FR', 'DE') or not (GDP < 10)",
      yes: [
        { ISO: 'FR', GDP: 1 },
        { ISO: 'IT', GDP: 20 },
      ],
      no: [{ ISO: 'IT', GDP: 3 }],
    },
    { filter: 'x is null', yes: [{ x: null }, {}], no: [{ x: 0 }] },
    { filter: 'x is not null and x != 3', yes: [{ x: 0 }], no: [{ x: 3 }, {}] },
    { filter: "NAME < 'M'", yes: [{ NAME: 'Chad' }], no: [{ NAME: 'Niger' }, { NAME: 7 }] },
  ];

  for (const c of cases) {
    it(c.filter, (t) => {
      if (!spec) return t.skip('@maplibre/maplibre-gl-style-spec is not installed');
      const expr = filterExpression(parseFilter(c.filter));
      const style = {
        version: 8,
        sources: { s: { type: 'geojson', data: { type: 'FeatureCollection', features: [] } } },
        layers: [{ id: 'l', type: 'fill', source: 's', filter: expr }],
      };
      assert.deepEqual(spec.validate(style), []);
      for (const p of c.yes) assert.equal(spec.passes(expr, p), true, `${JSON.stringify(p)} passes`);
      for (const p of c.no) assert.equal(spec.passes(expr, p), false, `${JSON.stringify(p)} is filtered out`);
    });
  }
});
