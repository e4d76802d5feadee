import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { PNG } from 'pngjs';
import { planLayout } from '../../src-shared/print/layoutPlan.js';
import { findCjkFont } from './cjkFont.js';
import { buildLayoutPdf } from './layoutPdf.js';

const dir = mkdtempSync(join(tmpdir(), 'mapwright-layout-pdf-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** A page-sized PNG: white, with the map box filled in `rgb` (a stand-in for the composed page). */
function pagePng(width: number, height: number, map: { x: number; y: number; width: number; height: number }, rgb: number[]) {
  const png = new PNG({ width, height });
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4;
      const inMap = x >= map.x && x < map.x + map.width && y >= map.y && y < map.y + map.height;
      const [r, g, b] = inMap ? rgb : [255, 255, 255];
      png.data.set([r!, g!, b!, 255], i);
    }
  return PNG.sync.write(png);
}

/** Renders page 1 with poppler at 50 DPI and reads it back. */
function render(pdf: string): PNG {
  execFileSync('pdftoppm', ['-png', '-r', '50', '-f', '1', '-l', '1', '-singlefile', pdf, join(dir, 'page')]);
  return PNG.sync.read(readFileSync(join(dir, 'page.png')));
}

describe('layout PDF (pdf-lib, read back by poppler)', () => {
  it('A4 landscape: one page of 842 × 595 pt, the image full-page, the title as text, the metadata set', async () => {
    const plan = planLayout('A4', 'landscape', 75);
    const png = pagePng(plan.page.widthPx, plan.page.heightPx, plan.map, [30, 120, 200]);
    const bytes = await buildLayoutPdf({
      spec: { title: 'Births in North Carolina, 1974', pageSize: 'A4', orientation: 'landscape' },
      png,
      created: new Date('2026-03-04T05:06:07Z'),
    });
    const file = join(dir, 'a4.pdf');
    writeFileSync(file, bytes);

    const info = execFileSync('pdfinfo', [file], { encoding: 'utf8' });
    assert.match(info, /Pages:\s+1\b/);
    assert.match(info, /Page size:\s+841\.89 x 595\.27\d* pts \(A4\)/);
    assert.match(info, /Title:\s+Births in North Carolina, 1974/);
    assert.match(info, /Creator:\s+Mapwright/);
    assert.match(info, /CreationDate:.*2026/);
    assert.match(execFileSync('pdftotext', [file, '-'], { encoding: 'utf8' }), /Births in North Carolina, 1974/);

    // Poppler's page at 50 DPI: 585 × 413 px (842 pt × 50/72), the map box blue, the margin white.
    const page = render(file);
    assert.ok(Math.abs(page.width - 585) <= 1 && Math.abs(page.height - 413) <= 1, `${page.width} × ${page.height}`);
    const at = (x: number, y: number) => Array.from(page.data.subarray((y * page.width + x) * 4, (y * page.width + x) * 4 + 3));
    const mid = {
      x: Math.round((plan.map.x + plan.map.width / 2) * (50 / 75)),
      y: Math.round((plan.map.y + plan.map.height / 2) * (50 / 75)),
    };
    const [r, g, b] = at(mid.x, mid.y);
    assert.ok(Math.abs(r! - 30) < 8 && Math.abs(g! - 120) < 8 && Math.abs(b! - 200) < 8, `map pixel ${[r, g, b]}`);
    assert.deepEqual(at(3, 3), [255, 255, 255], 'the margin is white');
  });

  it('Letter portrait: 612 × 792 pt; a title beyond WinAnsi keeps its Unicode in the metadata', async () => {
    const plan = planLayout('Letter', 'portrait', 40);
    const png = pagePng(plan.page.widthPx, plan.page.heightPx, plan.map, [200, 50, 50]);
    const file = join(dir, 'letter.pdf');
    // No CJK font (a path that does not exist): Helvetica as before, the ideographs left out of the text layer.
    const noCjkFont = { MAPWRIGHT_CJK_FONT: join(dir, 'missing.ttf') };
    const spec = { title: 'Population 人口 Ærø', pageSize: 'Letter', orientation: 'portrait' } as const;
    writeFileSync(file, await buildLayoutPdf({ spec, png, env: noCjkFont }));
    const info = execFileSync('pdfinfo', [file], { encoding: 'utf8' });
    assert.match(info, /Page size:\s+612 x 792 pts \(letter\)/);
    assert.match(info, /Title:\s+Population 人口 Ærø/);
    assert.match(execFileSync('pdftotext', [file, '-'], { encoding: 'utf8' }), /Population\s+Ærø/);
    const page = render(file);
    assert.ok(page.height > page.width, 'portrait');
  });

  it(
    'a Chinese title is written with the CJK font, so pdftotext reads it',
    { skip: !findCjkFont() && 'no CJK font installed' },
    async () => {
      const plan = planLayout('A4', 'landscape', 30);
      const file = join(dir, 'zh.pdf');
      const png = pagePng(plan.page.widthPx, plan.page.heightPx, plan.map, [0, 0, 0]);
      writeFileSync(file, await buildLayoutPdf({ spec: { title: '北京市人口 2020', pageSize: 'A4', orientation: 'landscape' }, png }));
      assert.match(execFileSync('pdftotext', [file, '-'], { encoding: 'utf8' }), /北京市人口 2020/);
      assert.match(execFileSync('pdffonts', [file], { encoding: 'utf8' }), /DroidSansFallback|CID TrueType/i, 'the font is embedded');
      assert.ok(readFileSync(file).length < 400_000, 'a subset, not the whole 4 MB font');
    },
  );

  it('no title: no text layer, the metadata says "Map"', async () => {
    const plan = planLayout('A3', 'portrait', 20);
    const file = join(dir, 'a3.pdf');
    writeFileSync(
      file,
      await buildLayoutPdf({
        spec: { title: '', pageSize: 'A3', orientation: 'portrait' },
        png: pagePng(plan.page.widthPx, plan.page.heightPx, plan.map, [0, 0, 0]),
      }),
    );
    const info = execFileSync('pdfinfo', [file], { encoding: 'utf8' });
    assert.match(info, /Page size:\s+841\.89 x 1190\.5\d* pts \(A3\)/);
    assert.match(info, /Title:\s+Map/);
    assert.equal(execFileSync('pdftotext', [file, '-'], { encoding: 'utf8' }).trim(), '');
  });
});
