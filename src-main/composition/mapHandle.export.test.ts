import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { PNG } from 'pngjs';
import type { ProjectHandle } from '../../src-shared/tools/handles.js';
import { ToolFailure } from '../../src-shared/tools/toolResult.js';
import type { RendererQueries } from '../tool-host/rendererQueries.js';
import { createMapHandle } from './mapHandle.js';

/**
 * `exportLayout` (issue #15): main asks the renderer for the composed page with the spec,
 * checks the answer and writes the PNG as sent, or a PDF around it, into the outputs folder.
 */
const dir = mkdtempSync(join(tmpdir(), 'mapwright-map-export-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const page = (width: number, height: number) => {
  const png = new PNG({ width, height });
  png.data.fill(255);
  return `data:image/png;base64,${PNG.sync.write(png).toString('base64')}`;
};

function handleAnswering(value: unknown) {
  const asked: { kind: string; options: unknown }[] = [];
  const queries = {
    ask: async (kind: string, _s: AbortSignal, options: unknown) => (asked.push({ kind, options }), value),
  } as unknown as RendererQueries;
  const project = { outputPath: (base: string, ext: string) => join(dir, `${base}.${ext}`) } as unknown as ProjectHandle;
  return { map: createMapHandle(queries, project), asked };
}

describe('map handle: exportLayout', () => {
  const signal = new AbortController().signal;

  it('asks for a print_layout with the spec and a longer time-out; a PNG is written as sent', async () => {
    const { map, asked } = handleAnswering({ dataUrl: page(60, 42), width: 60, height: 42, dpi: 5 });
    const out = await map.exportLayout({ title: 'Rivers', pageSize: 'A4', orientation: 'landscape', format: 'png' }, signal);
    assert.deepEqual(asked, [
      { kind: 'print_layout', options: { print: { title: 'Rivers', pageSize: 'A4', orientation: 'landscape' }, timeoutMs: 25_000 } },
    ]);
    assert.deepEqual(out, { path: join(dir, 'Rivers.png'), width: 60, height: 42, pages: 1, dpi: 5 });
    assert.equal(PNG.sync.read(readFileSync(out.path)).width, 60);
  });

  it('a PDF is one page of the asked size with the title as text; no title names the file map-layout', async () => {
    const { map } = handleAnswering({ dataUrl: page(42, 60), width: 42, height: 60, dpi: 5 });
    const titled = await map.exportLayout({ title: 'Lakes', pageSize: 'Letter', orientation: 'portrait', format: 'pdf' }, signal);
    assert.equal(titled.path, join(dir, 'Lakes.pdf'));
    assert.match(execFileSync('pdfinfo', [titled.path], { encoding: 'utf8' }), /Page size:\s+612 x 792 pts/);
    assert.match(execFileSync('pdftotext', [titled.path, '-'], { encoding: 'utf8' }), /Lakes/);
    const untitled = await map.exportLayout({ title: '  ', pageSize: 'A3', orientation: 'landscape', format: 'pdf' }, signal);
    assert.equal(untitled.path, join(dir, 'map-layout.pdf'));
  });

  it('refuses a malformed page with a tool error', async () => {
    for (const bad of [
      null,
      { dataUrl: 'data:image/jpeg;base64,AA', width: 1, height: 1, dpi: 150 },
      { dataUrl: page(2, 2), width: 2, height: 2 },
    ]) {
      await assert.rejects(
        handleAnswering(bad).map.exportLayout({ title: '', pageSize: 'A4', orientation: 'portrait', format: 'png' }, signal),
        (e: unknown) => e instanceof ToolFailure && e.code === 'handler_error',
      );
    }
  });
});
