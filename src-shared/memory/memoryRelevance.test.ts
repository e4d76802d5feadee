import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { looksLikeSecret, MemoryText } from '../domain/memory.js';
import { memoryTerms, rankMemories } from './memoryRelevance.js';

const at = (day: number) => `2026-11-${String(day).padStart(2, '0')}T10:00:00.000Z`;

describe('memory relevance', () => {
  it('compares Latin words whole, lower-cased, without function words and plural s', () => {
    assert.deepEqual([...memoryTerms('The Rivers of Luxembourg are in EPSG:2169')].sort(), ['2169', 'epsg', 'luxembourg', 'river']);
    assert.deepEqual([...memoryTerms('class glass')].sort(), ['class', 'glass'], 'a double s is not a plural');
  });

  it('compares Chinese as overlapping character pairs, also inside mixed runs', () => {
    assert.deepEqual([...memoryTerms('河流数据')].sort(), ['数据', '河流', '流数'].sort());
    assert.deepEqual([...memoryTerms('gpkg文件')].sort(), ['gpkg', '文件']);
    assert.deepEqual([...memoryTerms('河')], ['河']);
  });

  it('ranks by shared words, then the newest first; nothing shared keeps them newest first', () => {
    const memories = [
      { text: 'Use metres for buffers', updatedAt: at(1) },
      { text: 'Rivers layer is in EPSG:2169', updatedAt: at(2) },
      { text: 'Prefer blue for rivers and lakes', updatedAt: at(3) },
      { text: 'Reports go to Anna', updatedAt: at(4) },
    ];
    const ranked = rankMemories(memories, 'Style the rivers in EPSG:2169');
    assert.deepEqual(
      ranked.map((r) => [r.memory.text, r.score]),
      [
        ['Rivers layer is in EPSG:2169', 3],
        ['Prefer blue for rivers and lakes', 1],
        ['Reports go to Anna', 0],
        ['Use metres for buffers', 0],
      ],
    );
    assert.deepEqual(
      rankMemories(memories, '').map((r) => r.memory.text),
      ['Reports go to Anna', 'Prefer blue for rivers and lakes', 'Rivers layer is in EPSG:2169', 'Use metres for buffers'],
    );
    assert.equal(
      rankMemories(memories, 'the of and').every((r) => r.score === 0),
      true,
      'function words match nothing',
    );
  });

  it('finds a Chinese memory from a Chinese question', () => {
    const ranked = rankMemories(
      [
        { text: '报告用中文写', updatedAt: at(2) },
        { text: '河流图层用蓝色', updatedAt: at(1) },
      ],
      '把河流改成蓝色',
    );
    assert.equal(ranked[0]!.memory.text, '河流图层用蓝色');
    assert.ok(ranked[0]!.score >= 2);
  });
});

describe('memory text', () => {
  it('is one trimmed line of 1 to 500 characters, control characters removed', () => {
    assert.equal(MemoryText.parse('  Rivers\n\n are\tblue \u0007 '), 'Rivers are blue');
    assert.equal(MemoryText.safeParse(' \n\t ').success, false);
    assert.equal(MemoryText.safeParse('\u0000\u0001').success, false);
    assert.equal(MemoryText.safeParse('x'.repeat(501)).success, false);
    assert.equal(MemoryText.parse(`${'x'.repeat(500)}   `).length, 500);
  });

  it('tells keys, tokens and passwords from ordinary notes', () => {
    for (const secret of [
      'my key is sk-proj-abcdefghijklmnop1234',
      'token ghp_0123456789abcdefABCDEF',
      'AKIAIOSFODNN7EXAMPLE for the bucket',
      'Authorization: Bearer abcdefghijklmnop.qrstuv',
      'the PostGIS password: hunter2',
      'api key = 1234',
      '数据库密码：abc123',
      'use 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
    ])
      assert.equal(looksLikeSecret(secret), true, secret);
    for (const note of [
      'Rivers layer is in EPSG:2169',
      'Data lives in /home/anna/projects/2024/rivers_final_version_with_corrections.gpkg',
      'Prefer quantile classes with 5 breaks for population density maps',
      'Tokens of appreciation go to the survey team',
      '报告用中文写，河流用蓝色',
    ])
      assert.equal(looksLikeSecret(note), false, note);
  });
});
