import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { PNG } from 'pngjs';
import { onMap } from './mapHandle.js';
import { repoRoot } from './webHost.js';

export const screenshotDir = join(repoRoot, 'e2e', 'screenshots');

/**
 * Domain verbs over the public test contract (the data-testids of the README) and the map's
 * test handle (mapHandle.ts, `data-map-idle-seq`). Specs speak in these words; the drivers in
 * e2e/support are what know Playwright and the selectors.
 */
export class AppDriver {
  constructor(readonly page: Page) {}

  async open(url: string): Promise<void> {
    await this.page.goto(url);
    await this.waitForMapIdle();
  }

  /** Reloads the page and waits for its map, as a person pressing F5. */
  async reload(): Promise<void> {
    await this.page.reload();
    await this.waitForMapIdle();
  }

  /** The map is loaded, not moving, and has every tile of its view. */
  async waitForMapIdle(): Promise<void> {
    await this.page.waitForSelector('[data-testid="map"][data-map-loaded="true"]', { timeout: 30_000 });
    await this.poll(
      () => onMap(this.page, (map) => map.loaded() && map.areTilesLoaded() && !map.isMoving()),
      (idle) => idle,
      30_000,
      () => 'the map did not settle (loaded, still, every tile) in 30 s',
      50,
    );
  }

  /**
   * Runs `action`, then waits for the map's next `idle` after it: the map container's
   * `data-map-idle-seq` (MapView.tsx counts MapLibre's idle events) is read before the action
   * and must grow. `action` must change what the map draws (or its view), or no idle follows.
   */
  async waitForNextMapIdle<T>(action: () => Promise<T>, timeout = 30_000): Promise<T> {
    const map = this.page.getByTestId('map');
    const before = Number((await map.getAttribute('data-map-idle-seq')) ?? 0);
    const result = await action();
    await this.page.waitForFunction(
      (seq) => Number(document.querySelector('[data-testid="map"]')?.getAttribute('data-map-idle-seq') ?? 0) > seq,
      before,
      { timeout },
    );
    return result;
  }

  // ---- the map view ----

  async mapView(): Promise<MapViewState> {
    return onMap(this.page, (map) => {
      const c = map.getCenter();
      return { center: [c.lng, c.lat] as [number, number], zoom: map.getZoom() };
    });
  }

  /** Jumps the map to a view (no animation) and waits until it has drawn it. */
  async setMapView(view: MapViewState): Promise<void> {
    // A block body: jumpTo returns the map, which Playwright would serialise back, slowly.
    await this.waitForNextMapIdle(() =>
      onMap(
        this.page,
        (map, v) => {
          map.jumpTo(v);
        },
        view,
      ),
    );
  }

  /** Fits the map to [west, south, east, north] (no animation) and waits until it has drawn it. */
  async fitMap(bounds: [number, number, number, number], padding = 40): Promise<void> {
    await this.waitForNextMapIdle(() =>
      onMap(
        this.page,
        (map, { b, p }) => {
          map.fitBounds(
            [
              [b[0], b[1]],
              [b[2], b[3]],
            ],
            { padding: p, duration: 0 },
          );
        },
        { b: bounds, p: padding },
      ),
    );
  }

  /** Waits until the view passes `test` and the map is still again (a fit or a zoom to selection). */
  async waitForMapView(test: (view: MapViewState) => boolean, timeout = 30_000): Promise<MapViewState> {
    const settled = await this.poll(
      async () => ({ view: await this.mapView(), still: await onMap(this.page, (map) => !map.isMoving() && map.loaded()) }),
      ({ view, still }) => still && test(view),
      timeout,
      ({ view }) => `the map view did not settle as expected; it is ${JSON.stringify(view)}`,
    );
    return settled.view;
  }

  /** Container pixel coordinates of a geographic position. */
  async mapPoint(lon: number, lat: number): Promise<{ x: number; y: number }> {
    return onMap(this.page, (map, p) => map.project(p), [lon, lat] as [number, number]);
  }

  /** The map's sources (basemap and layers) as the style holds them. */
  async mapSources(): Promise<{ id: string; type: string; tiles: string[] }[]> {
    return onMap(this.page, (map) => Object.entries(map.getStyle().sources).map(([id, s]) => ({ id, type: s.type, tiles: s.tiles ?? [] })));
  }

  /** How many features the app's layers (`layer-…` style layers) drawn from sources of `sourceType` have on screen. */
  async renderedFeatureCount(sourceType: string): Promise<number> {
    return onMap(
      this.page,
      (map, type) => {
        const style = map.getStyle();
        const ids = style.layers
          .filter((l) => l.id.startsWith('layer-') && l.source && style.sources[l.source]?.type === type)
          .map((l) => l.id);
        return ids.length ? map.queryRenderedFeatures({ layers: ids }).length : 0;
      },
      sourceType,
    );
  }

  /** Waits until the app's layers drawn from sources of `sourceType` have more than `count` features on screen. */
  async waitForRenderedFeatures(sourceType: string, count: number, timeout = 30_000): Promise<number> {
    return this.poll(
      () => this.renderedFeatureCount(sourceType),
      (n) => n > count,
      timeout,
      (n) => `${n} features drawn from ${sourceType} sources, not more than ${count}`,
    );
  }

  /** The label layer's id (a symbol layer `…-label`) and the `field` of each label placed, or null. */
  async placedLabels(field: string): Promise<{ layerId: string; texts: unknown[] } | null> {
    return onMap(
      this.page,
      (map, f) => {
        const label = map.getStyle().layers.find((l) => l.type === 'symbol' && l.id.endsWith('-label'));
        return label ? { layerId: label.id, texts: map.queryRenderedFeatures({ layers: [label.id] }).map((x) => x.properties[f]) } : null;
      },
      field,
    );
  }

  async askAgent(text: string): Promise<void> {
    await this.page.getByTestId('chat-input').fill(text);
    await this.page.getByTestId('chat-send').click();
  }

  async waitForApproval(): Promise<{ text: string }> {
    const dialog = this.page.getByTestId('approval-dialog');
    await dialog.waitFor({ state: 'visible', timeout: 20_000 });
    return { text: await dialog.innerText() };
  }

  async approvePending(options: { remember?: boolean } = {}): Promise<void> {
    const id = await this.currentApprovalId();
    if (options.remember) await this.page.getByTestId('approval-remember').check();
    await this.page.getByTestId('approval-approve').click();
    await this.waitForApprovalGone(id);
  }

  async rejectPending(): Promise<void> {
    const id = await this.currentApprovalId();
    await this.page.getByTestId('approval-reject').click();
    await this.waitForApprovalGone(id);
  }

  private async currentApprovalId(): Promise<string> {
    await this.waitForApproval();
    return (await this.page.getByTestId('approval-dialog').getAttribute('data-approval-id')) ?? '';
  }

  /** The decided request's dialog is gone — hidden, or replaced at once by the next request's. */
  private async waitForApprovalGone(id: string): Promise<void> {
    await this.page.waitForFunction(
      (decided) =>
        (document.querySelector('[data-testid="approval-dialog"]') as HTMLElement | null)?.getAttribute('data-approval-id') !== decided,
      id,
      { timeout: 30_000 },
    );
  }

  async layerNames(): Promise<string[]> {
    return this.page.getByTestId('layer-item').evaluateAll((els) => els.map((e) => e.getAttribute('data-layer-name') ?? ''));
  }

  async waitForLayer(name: string): Promise<void> {
    await this.layerItem(name).waitFor({ timeout: 20_000 });
  }

  async waitForLayerGone(name: string): Promise<void> {
    await this.layerItem(name).waitFor({ state: 'detached', timeout: 20_000 });
  }

  private layerItem(name: string) {
    return this.page.locator(`[data-testid="layer-item"][data-layer-name="${name}"]`);
  }

  // ---- the layer panel: the person's own actions (no dialog) ----

  /** The panel's ✕: the layer leaves the list. */
  async removeLayer(name: string): Promise<void> {
    await this.layerItem(name).getByTestId('layer-remove').click();
    await this.waitForLayerGone(name);
  }

  async isLayerVisible(name: string): Promise<boolean> {
    return this.layerItem(name).getByTestId('layer-visibility').isChecked();
  }

  /** The panel's checkbox; when that changes the map, waits until the map has drawn it. */
  async setLayerVisible(name: string, visible: boolean): Promise<void> {
    if ((await this.isLayerVisible(name)) === visible) return;
    await this.waitForNextMapIdle(() => this.layerItem(name).getByTestId('layer-visibility').setChecked(visible));
  }

  /** The panel's opacity slider (0–100); when that changes the map, waits until the map has drawn it. */
  async setLayerOpacity(name: string, percent: number): Promise<void> {
    const slider = this.layerItem(name).getByTestId('layer-opacity');
    if (Number(await slider.inputValue()) === percent) return;
    await this.waitForNextMapIdle(() => slider.fill(String(percent)));
  }

  /** A click on the layer's name zooms the map to it; waits until the map has drawn the new view. */
  async zoomToLayer(name: string): Promise<void> {
    await this.waitForNextMapIdle(() => this.layerItem(name).locator('.layer-item__name').click());
  }

  // ---- approval mode, undo, audit ----

  async approvalMode(): Promise<string> {
    return this.page.getByTestId('mode-select').inputValue();
  }

  /** The status bar's mode select, once the policy has loaded. */
  async setApprovalMode(mode: 'ask' | 'auto' | 'plan'): Promise<void> {
    await this.page.waitForFunction(() => !(document.querySelector('[data-testid="mode-select"]') as HTMLSelectElement | null)?.disabled);
    await this.page.getByTestId('mode-select').selectOption(mode);
    await this.page.waitForFunction((m) => (document.querySelector('[data-testid="mode-select"]') as HTMLSelectElement).value === m, mode);
  }

  /** "Undo" once it is enabled (not while a run is live). */
  async undo(): Promise<void> {
    await this.page.waitForFunction(() => !(document.querySelector('[data-testid="undo-last"]') as HTMLButtonElement | null)?.disabled);
    await this.page.getByTestId('undo-last').click();
  }

  /** Opens the audit log (if closed) and reads its rows, newest first. */
  async auditEntries(): Promise<{ toolId: string; outcome: string }[]> {
    if ((await this.page.getByTestId('audit-panel').count()) === 0) await this.page.getByTestId('audit-open').click();
    await this.page.getByTestId('audit-panel').waitFor();
    await this.page.getByTestId('audit-row').first().waitFor();
    return this.page
      .getByTestId('audit-row')
      .evaluateAll((rows) =>
        rows.map((r) => ({ toolId: r.getAttribute('data-tool-id') ?? '', outcome: r.getAttribute('data-outcome') ?? '' })),
      );
  }

  /** The tool ids of the audit log's rows, newest first. */
  async auditToolIds(): Promise<string[]> {
    return (await this.auditEntries()).map((e) => e.toolId);
  }

  /**
   * Waits until the tool card of the call named `wireName` (`namespace_name`) reaches `status`
   * (`ok`, `error`, `rejected`…) and returns its text.
   */
  async waitForToolCard(wireName: string, status: string, timeout = 20_000): Promise<string> {
    const card = this.page.locator('[data-testid="chat-message"][data-role="tool"]').filter({ hasText: wireName }).last();
    await card.waitFor({ timeout });
    await this.poll(
      () => card.getByTestId('tool-card-status').getAttribute('data-status'),
      (s) => s === status,
      timeout,
      (s) => `the ${wireName} card is ${s}, not ${status}`,
    );
    return card.innerText();
  }

  async messages(): Promise<{ role: string; text: string }[]> {
    return this.page
      .getByTestId('chat-message')
      .evaluateAll((els) => els.map((e) => ({ role: e.getAttribute('data-role') ?? '', text: (e as HTMLElement).innerText })));
  }

  async waitForMessage(role: string, pattern: RegExp, timeoutMs = 20_000): Promise<string> {
    const messages = await this.poll(
      () => this.messages(),
      (ms) => ms.some((m) => m.role === role && pattern.test(m.text)),
      timeoutMs,
      (ms) => `No ${role} message matching ${pattern}; have: ${JSON.stringify(ms)}`,
      150,
    );
    return messages.find((m) => m.role === role && pattern.test(m.text))!.text;
  }

  /** Reads until `done` holds; after `timeout` ms throws `failure(last reading)`. */
  private async poll<T>(
    read: () => Promise<T>,
    done: (value: T) => boolean,
    timeout: number,
    failure: (value: T) => string,
    everyMs = 100,
  ): Promise<T> {
    const deadline = Date.now() + timeout;
    for (;;) {
      const value = await read();
      if (done(value)) return value;
      if (Date.now() > deadline) throw new Error(failure(value));
      await this.page.waitForTimeout(everyMs);
    }
  }

  async waitForRunIdle(): Promise<void> {
    await this.page
      .getByTestId('stop-run')
      .waitFor({ state: 'hidden', timeout: 20_000 })
      .catch(async () => {
        await this.page.waitForFunction(() => {
          const b = document.querySelector('[data-testid="stop-run"]') as HTMLButtonElement | null;
          return !b || b.disabled;
        });
      });
  }

  // ---- model settings (settings panel) ----

  async openSettings(): Promise<void> {
    await this.page.getByTestId('settings-open').click();
    await this.page.getByTestId('settings-panel').waitFor({ state: 'visible' });
    // The form is filled from main's copy once it has loaded.
    await this.page.waitForFunction(() => (document.querySelector('[data-testid="settings-key-storage"]')?.textContent ?? '') !== '');
  }

  /** Fills the fields given, in the order a person would (the provider first: it fills defaults). */
  async fillSettings(fields: {
    provider?: string;
    wire?: string;
    url?: string;
    model?: string;
    key?: string;
    thinkingBudget?: string;
  }): Promise<void> {
    const panel = this.page.getByTestId('settings-panel');
    if (fields.provider) await panel.getByTestId('settings-provider').selectOption(fields.provider);
    if (fields.wire) await panel.getByTestId('settings-wire').selectOption(fields.wire);
    if (fields.url !== undefined) await panel.getByTestId('settings-url').fill(fields.url);
    if (fields.model !== undefined) await panel.getByTestId('settings-model').fill(fields.model);
    if (fields.key !== undefined) await panel.getByTestId('settings-key').fill(fields.key);
    if (fields.thinkingBudget !== undefined) await panel.getByTestId('settings-thinking-budget').fill(fields.thinkingBudget);
  }

  /** The model ids the panel offers after "List models". */
  async listModels(): Promise<string[]> {
    const button = this.page.getByTestId('settings-list-models');
    await button.click();
    await this.page.waitForFunction(() => {
      const b = document.querySelector('[data-testid="settings-list-models"]') as HTMLButtonElement | null;
      return (
        !!b && !b.disabled && /offered|Could not/.test(document.querySelector('[data-testid="settings-models-status"]')?.textContent ?? '')
      );
    });
    return this.page.locator('#settings-model-list option').evaluateAll((els) => els.map((e) => (e as HTMLOptionElement).value));
  }

  async testConnection(): Promise<{ ok: boolean; message: string; tools: string; streaming: string; reasoning: string }> {
    await this.page.getByTestId('settings-test').click();
    const result = this.page.getByTestId('settings-test-result');
    await result.waitFor({ state: 'visible', timeout: 30_000 });
    const value = (id: string) =>
      result
        .getByTestId(id)
        .getAttribute('data-value')
        .then((v) => v ?? '');
    return {
      ok: (await result.getAttribute('data-ok')) === 'true',
      message: await result.locator('.connection-report__message').innerText(),
      tools: await value('detected-tools'),
      streaming: await value('detected-streaming'),
      reasoning: await value('detected-reasoning'),
    };
  }

  /** Runs the model scorecard from the open settings panel and reads the card once it is done. */
  async runScorecard(): Promise<{ passed: number; total: number; probes: { id: string; pass: boolean }[] }> {
    const card = this.page.getByTestId('settings-scorecard');
    const before = (await card.count()) > 0 ? await card.getAttribute('data-ran-at') : null;
    await this.page.getByTestId('settings-scorecard-run').click();
    await this.page.waitForFunction(
      (previous) => {
        const el = document.querySelector('[data-testid="settings-scorecard"]');
        return el?.getAttribute('data-state') === 'done' && el.getAttribute('data-ran-at') !== previous;
      },
      before,
      { timeout: 60_000 },
    );
    return this.scorecard();
  }

  /** The scorecard the settings panel shows now. */
  async scorecard(): Promise<{ passed: number; total: number; probes: { id: string; pass: boolean }[] }> {
    const card = this.page.getByTestId('settings-scorecard');
    await card.waitFor({ state: 'visible' });
    const probes = await card
      .getByTestId('scorecard-probe')
      .evaluateAll((els) => els.map((e) => ({ id: e.getAttribute('data-probe-id') ?? '', pass: e.getAttribute('data-pass') === 'true' })));
    return { passed: Number(await card.getAttribute('data-passed')), total: Number(await card.getAttribute('data-total')), probes };
  }

  /** Unfolds one probe of the scorecard and reads its evidence. */
  async scorecardEvidence(probeId: string): Promise<string> {
    const probe = this.page.locator(`[data-testid="scorecard-probe"][data-probe-id="${probeId}"]`);
    await probe.locator('summary').click();
    return probe.getByTestId('scorecard-evidence').innerText();
  }

  async saveSettings(): Promise<void> {
    await this.page.getByTestId('settings-save').click();
    await this.page.getByTestId('settings-panel').waitFor({ state: 'hidden' });
  }

  async closeSettings(): Promise<void> {
    await this.page.getByTestId('settings-cancel').click();
    await this.page.getByTestId('settings-panel').waitFor({ state: 'hidden' });
  }

  /** What the status bar says about the model. */
  async modelStatus(): Promise<{ configured: boolean; text: string }> {
    const item = this.page.locator('[data-model-configured]');
    return { configured: (await item.getAttribute('data-model-configured')) === 'true', text: await item.innerText() };
  }

  /** The conversation as saved: each message's text without the live-only reasoning block. */
  async transcript(): Promise<{ role: string; text: string }[]> {
    return this.page.getByTestId('chat-message').evaluateAll((els) =>
      els.map((e) => {
        const block = e.querySelector('[data-testid="reasoning-block"]') as HTMLElement | null;
        const full = (e as HTMLElement).innerText;
        return { role: e.getAttribute('data-role') ?? '', text: (block ? full.replace(block.innerText, '') : full).trim() };
      }),
    );
  }

  /** The reasoning block of the newest assistant message that has one, or null. */
  async reasoningBlock(): Promise<{ state: string; growing: boolean; text: string } | null> {
    const blocks = this.page.getByTestId('reasoning-block');
    if ((await blocks.count()) === 0) return null;
    const last = blocks.last();
    return {
      state: (await last.getAttribute('data-state')) ?? '',
      growing: (await last.getAttribute('data-growing')) === 'true',
      text: await last.innerText(),
    };
  }

  /** The map as a real screenshot (RGBA), once it is idle. */
  async mapImage(): Promise<PNG> {
    await this.waitForMapIdle();
    return PNG.sync.read(await this.page.getByTestId('map').screenshot());
  }

  /** RGBA of the map pixel at a geographic position, read from a real screenshot. */
  async mapPixelAt(lon: number, lat: number): Promise<Rgba> {
    const [pixel] = await this.mapPixelsAt([[lon, lat]]);
    return pixel!;
  }

  /** RGBA of the map pixels at geographic positions, all read from one screenshot. */
  async mapPixelsAt(positions: readonly (readonly [number, number])[]): Promise<Rgba[]> {
    await this.waitForMapIdle();
    const points = await onMap(
      this.page,
      (map, ps) => ps.map((p) => map.project(p)),
      positions.map(([lon, lat]) => [lon, lat] as [number, number]),
    );
    const png = await this.mapImage();
    return points.map((point) => pixelOf(png, point.x, point.y));
  }

  /**
   * The pixels of a `columns` × `rows` grid of positions from `origin`, `step` degrees apart
   * (row by row, west to east, then south to north).
   */
  async mapPixelGrid(origin: [number, number], step: number, columns: number, rows = columns): Promise<Rgba[]> {
    const positions = Array.from({ length: columns * rows }, (_, i): [number, number] => [
      origin[0] + (i % columns) * step,
      origin[1] + Math.floor(i / columns) * step,
    ]);
    return this.mapPixelsAt(positions);
  }

  async screenshot(name: string): Promise<string> {
    mkdirSync(screenshotDir, { recursive: true });
    const path = join(screenshotDir, `${name}.png`);
    await this.page.screenshot({ path });
    return path;
  }
}

export type Rgba = [number, number, number, number];

export interface MapViewState {
  center: [number, number];
  zoom: number;
}

/** RGBA of the pixel at (x, y) of an image, rounded to the nearest pixel. */
export function pixelOf(png: PNG, x: number, y: number): Rgba {
  const i = (png.width * Math.round(y) + Math.round(x)) * 4;
  return [png.data[i]!, png.data[i + 1]!, png.data[i + 2]!, png.data[i + 3]!];
}

export function colourDistance(a: readonly number[], b: readonly number[]): number {
  return Math.hypot(a[0]! - b[0]!, a[1]! - b[1]!, a[2]! - b[2]!);
}
