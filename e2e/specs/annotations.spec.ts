import assert from 'node:assert/strict';
import { copyFileSync, readFileSync } from 'node:fs';
import { before, describe, it } from 'node:test';
import { PNG } from 'pngjs';
import { colourDistance, pixelOf, type Rgba } from '../support/appDriver.js';
import { type SharedApp, useAppSession } from '../support/appSession.js';
import { onMap } from '../support/mapHandle.js';

/**
 * The annotation layer (issue #14) in Chromium: the model adds a note, an arrow and a
 * highlight (each approved); they are drawn above the map in their colours; the person
 * deletes one and Undo brings it back; the person drags one to a new place; the model may not
 * delete one; and the model's own map screenshot shows them. No GIS fixtures: the basemap only.
 */
const PINK = '#ff00aa';
const ORANGE = '#ff8c00';
const GREEN = '#1a9e3a';
const NOTE_AT: [number, number] = [10, 50];
const MOVED_TO: [number, number] = [16, 47];
const HIGHLIGHT = [
  [
    [2, 44],
    [6, 44],
    [6, 47],
    [2, 47],
    [2, 44],
  ],
];
const INSIDE_HIGHLIGHT: [number, number] = [3, 45];
const ARROW = [
  [0, 52],
  [8, 52],
];
const ON_ARROW: [number, number] = [3, 52];
/** The basemap's land colour, under a 0.3-opaque fill. */
const LAND = [0xf2, 0xef, 0xe9];

const rgb = (hex: string) => [1, 3, 5].map((k) => Number.parseInt(hex.slice(k, k + 2), 16));
const blend = (hex: string, over: number[], alpha: number) => rgb(hex).map((c, i) => Math.round(c * alpha + over[i]! * (1 - alpha)));
const near = (px: Rgba, colour: number[], tolerance = 40) => colourDistance(px, colour) < tolerance;

describe('annotations in Chromium: added by the model, moved and deleted by the person, in screenshots', () => {
  const session = useAppSession({ homePrefix: 'mapwright-e2e-annotations-' });
  let { page, app, model } = {} as SharedApp;
  before(async () => ({ page, app, model } = await session.openApp()));

  const items = () => page.getByTestId('annotation-item');
  const item = (kind: string) => page.locator(`[data-testid="annotation-item"][data-kind="${kind}"]`);
  async function waitForCount(n: number) {
    await page.waitForFunction((count) => document.querySelectorAll('[data-testid="annotation-item"]').length === count, n);
  }

  it('the model adds a note, an arrow and a highlight; each asks; all are drawn above the map', async () => {
    await app.setMapView({ center: [8, 48], zoom: 4.5 });
    model.script([
      {
        toolCalls: [
          {
            name: 'annotations_add',
            arguments: { kind: 'note', text: 'Meet here', geometry: { type: 'Point', coordinates: NOTE_AT }, color: PINK },
          },
        ],
      },
      {
        toolCalls: [
          {
            name: 'annotations_add',
            arguments: { kind: 'arrow', text: 'Route', geometry: { type: 'LineString', coordinates: ARROW }, color: GREEN },
          },
        ],
      },
      {
        toolCalls: [
          {
            name: 'annotations_add',
            arguments: { kind: 'highlight', text: 'Study area', geometry: { type: 'Polygon', coordinates: HIGHLIGHT }, color: ORANGE },
          },
        ],
      },
      { text: 'I marked the meeting point, the route and the study area.' },
    ]);
    await app.askAgent('mark the meeting point, the route and the study area');
    const dialog = await app.waitForApproval();
    assert.match(dialog.text, /Add note "Meet here"/);
    await app.approvePending();
    await app.approvePending();
    await app.approvePending();
    await app.waitForMessage('assistant', /marked the meeting point/);
    await waitForCount(3);
    assert.deepEqual(await items().evaluateAll((els) => els.map((e) => e.getAttribute('data-kind'))), ['highlight', 'arrow', 'note']);

    const [note, fill, line] = await app.mapPixelsAt([NOTE_AT, INSIDE_HIGHLIGHT, ON_ARROW]);
    await page.screenshot({ path: '/tmp/annot-1-added.png' });
    assert.ok(near(note!, rgb(PINK)), `the note's marker is pink: ${note}`);
    assert.ok(near(fill!, blend(ORANGE, LAND, 0.3), 30), `the highlight is a translucent orange: ${fill} vs ${blend(ORANGE, LAND, 0.3)}`);
    assert.ok(near(line!, rgb(GREEN)), `the arrow is green: ${line}`);
    // The arrow head: a triangle wider than the line at its end (off the line's axis, still green).
    const tip = await app.mapPoint(ARROW[1]![0]!, ARROW[1]![1]!);
    const png = await app.mapImage();
    const beside = pixelOf(png, tip.x - 14, tip.y - 5);
    const besideLine = pixelOf(png, tip.x - 80, tip.y - 5);
    assert.ok(near(beside, rgb(GREEN)), `the head is there: ${beside}`);
    assert.ok(!near(besideLine, rgb(GREEN), 120), `the line itself is narrow: ${besideLine}`);
    // The label at the arrow's tail, the note's beside it.
    const rendered = await onMap(page, (map) =>
      map
        .queryRenderedFeatures({ layers: ['mapwright-annotation-head', 'mapwright-annotation-label'] })
        .map((f) => `${f.layer.id}:${f.properties.text}`),
    );
    assert.ok(rendered.includes('mapwright-annotation-head:Route'), rendered.join(', '));
    assert.ok(rendered.includes('mapwright-annotation-label:Meet here'), rendered.join(', '));
    // Drawn above the data: after every layer but the map tools' own (measure, editing sketch).
    const order = await onMap(page, (map) => map.getStyle().layers.map((l) => l.id));
    const ours = order.filter((id) => !/^mapwright-(measure|edit)-/.test(id));
    assert.deepEqual(ours.slice(-5), [
      'mapwright-annotation-fill',
      'mapwright-annotation-line',
      'mapwright-annotation-head',
      'mapwright-annotation-marker',
      'mapwright-annotation-label',
    ]);
  });

  it('the person deletes the note, and Undo brings it back', async () => {
    await item('note').getByTestId('annotation-delete').click();
    await waitForCount(2);
    const gone = await app.mapPixelAt(...NOTE_AT);
    await page.screenshot({ path: '/tmp/annot-2-deleted.png' });
    assert.ok(!near(gone, rgb(PINK), 120), `no pink where the note was: ${gone}`);
    await app.undo();
    await waitForCount(3);
    const back = await app.mapPixelAt(...NOTE_AT);
    assert.ok(near(back, rgb(PINK)), `the note is back: ${back}`);
  });

  it('the person drags the note to a new place (Move, then drag on the map)', async () => {
    await item('note').getByTestId('annotation-move').click();
    const box = (await page.getByTestId('map').boundingBox())!;
    const from = await app.mapPoint(...NOTE_AT);
    const to = await app.mapPoint(...MOVED_TO);
    await page.mouse.move(box.x + from.x, box.y + from.y);
    await page.mouse.down();
    for (let i = 1; i <= 8; i++)
      await page.mouse.move(box.x + from.x + ((to.x - from.x) * i) / 8, box.y + from.y + ((to.y - from.y) * i) / 8);
    await page.mouse.up();
    await page.waitForFunction(() => document.querySelector('[data-testid="annotation-move"][aria-pressed="true"]') === null);
    await app.waitForMapView(() => true);
    const [oldPlace, newPlace] = await app.mapPixelsAt([NOTE_AT, MOVED_TO]);
    await page.screenshot({ path: '/tmp/annot-3-moved.png' });
    assert.ok(near(newPlace!, rgb(PINK)), `the note is at its new place: ${newPlace}`);
    assert.ok(!near(oldPlace!, rgb(PINK), 120), `and no longer at the old one: ${oldPlace}`);
    assert.equal(await app.auditToolIds().then((ids) => ids.filter((id) => id === 'annotations.move').length), 1);
    await page.getByTestId('audit-close').click();
  });

  it('the model may not delete one: refused, and it stays', async () => {
    const id = await item('note').getAttribute('data-annotation-id');
    model.reset();
    model.script([{ toolCalls: [{ name: 'annotations_delete', arguments: { id } }] }, { text: 'I cannot delete annotations.' }]);
    await app.askAgent('delete the meeting point');
    await app.waitForMessage('assistant', /cannot delete/);
    const result = model.requests[1]!.messages.filter((m) => m.role === 'tool').at(-1)!;
    assert.match(String(result.content), /can only be run by the person/);
    assert.ok(!model.requests[0]!.tools!.some((t) => t.function.name.startsWith('annotations_delete')), 'never offered');
    assert.equal(await items().count(), 3);
  });

  it("the model's map screenshot shows the annotations", async () => {
    model.reset();
    model.script([{ toolCalls: [{ name: 'map_screenshot', arguments: {} }] }, { text: 'Here is the map.' }]);
    await app.askAgent('take a screenshot of the map');
    await app.waitForMessage('assistant', /Here is the map/);
    const result = String(model.requests[1]!.messages.filter((m) => m.role === 'tool').at(-1)!.content);
    const path = /"path":"([^"]+\.png)"/.exec(result)?.[1];
    assert.ok(path, result);
    const file = JSON.parse(`"${path}"`) as string;
    copyFileSync(file, '/tmp/annot-4-model-screenshot.png');
    const png = PNG.sync.read(readFileSync(file));
    const counts = { pink: 0, green: 0, orange: 0 };
    for (let i = 0; i < png.data.length; i += 4) {
      const px = [png.data[i]!, png.data[i + 1]!, png.data[i + 2]!];
      if (near(px as Rgba, rgb(PINK))) counts.pink++;
      if (near(px as Rgba, rgb(GREEN))) counts.green++;
      if (near(px as Rgba, blend(ORANGE, LAND, 0.3), 20)) counts.orange++;
    }
    console.log(`# screenshot ${png.width}x${png.height} at ${path}: ${JSON.stringify(counts)}`);
    assert.ok(counts.pink > 50 && counts.green > 50 && counts.orange > 500, JSON.stringify(counts));
  });
});
