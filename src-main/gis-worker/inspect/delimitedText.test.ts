import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { REPO_ROOT } from '../testSupport.js';
import { cleanTable, decodeText, detectLayout, guessDelimiter, isClean, parseDelimited } from './delimitedText.js';

const own = (name: string) => path.join(REPO_ROOT, 'e2e', 'fixtures', 'gis', name);
const layoutOf = (text: string) => {
  const d = guessDelimiter(text);
  const records = parseDelimited(text, d);
  return { records, layout: detectLayout(records, d) };
};

test('parses RFC 4180 quoting: doubled quotes, delimiters and newlines inside quotes; remembers what was quoted', () => {
  const r = parseDelimited('a,"b ""c"", d","e\nf"\r\n 1 ,"01"\n', ',');
  assert.deepEqual(r[0]!.cells, ['a', 'b "c", d', 'e\nf']);
  assert.deepEqual(r[1], { cells: ['1', '01'], quoted: [false, true] });
  assert.equal(guessDelimiter('a;b;c\n1;2;3\n4;5;6\n'), ';');
  assert.equal(guessDelimiter('a\tb\n1,5\t2\n'), '\t');
});

test('readxl deaths sheet as CSV: header found below four title lines, four note lines dropped', () => {
  const text = readFileSync(own('deaths_arts.csv'), 'utf8');
  const { records, layout } = layoutOf(text);
  assert.equal(layout.headerRecord, 4);
  assert.equal(records[4]!.cells[0], 'Name');
  assert.equal(layout.dataRecords, 10);
  assert.equal(layout.footerRecords, 4);
  assert.equal(isClean(records, layout), false);
  const clean = cleanTable(records, layout).split('\n');
  assert.equal(clean[0], '"Name","Profession","Age","Has kids","Date of birth","Date of death"');
  assert.equal(clean[1], 'David Bowie,musician,69,1,1947/01/08,2016/01/10', 'the quoted "69" and "1" are unquoted: numbers');
  assert.equal(clean.length, 12);
});

test('BEA per-capita income CSV: header on the first line, five source/footnote lines below the 60 areas', () => {
  const { layout } = layoutOf(readFileSync(own('spi_download.csv'), 'utf8'));
  assert.deepEqual([layout.headerRecord, layout.dataRecords, layout.footerRecords, layout.width], [0, 60, 5, 43]);
});

test('R NA cells: unquoted NA is missing, quoted "NA" (Namibia) is text; a clean file is left alone', () => {
  const { records, layout } = layoutOf(readFileSync(own('worldbank_df.csv'), 'utf8'));
  assert.equal(isClean(records, layout), false);
  const lines = cleanTable(records, layout).split('\n');
  assert.ok(lines.includes('Afghanistan,AF,,8609463,,3.18320145523634,'));
  assert.ok(lines.some((l) => l.startsWith('Namibia,"NA",0.606,')));
  const plain = layoutOf('x,y,name\n1,2,a\n3,4,b\n');
  assert.equal(isClean(plain.records, plain.layout), true);
});

test('Latin-1 text is decoded as Windows-1252; UTF-8 BOM removed', () => {
  assert.deepEqual(decodeText(Uint8Array.from([0x47, 0xe1, 0x62, 0x6f, 0x72])), { text: 'Gábor', encoding: 'windows-1252' });
  assert.deepEqual(decodeText(new TextEncoder().encode('\uFEFFGábor')), { text: 'Gábor', encoding: 'utf-8' });
});
