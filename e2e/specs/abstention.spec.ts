import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { ReceivedRequest } from '../model-server/scriptedModelServer.js';
import { useAppSession } from '../support/appSession.js';
import { repoRoot } from '../support/webHost.js';

const COUNTRIES = join(repoRoot, 'e2e', 'fixtures', 'gis', 'sudamerica.shp');
const DEM = join(repoRoot, 'e2e', 'fixtures', 'gis', 'olinda_dem_utm25s.tif');

/** The last message of a request: the tool result the scripted model is answering. */
function lastToolResult(body: ReceivedRequest): {
  ok: boolean;
  data?: Record<string, unknown>;
  error?: { code: string; message: string; hint?: string };
} {
  return JSON.parse(String(body.messages.at(-1)!.content)) as never;
}

function systemPrompt(body: ReceivedRequest): string {
  const first = body.messages[0]!;
  return first.role === 'system' ? String(first.content) : String((body as { system?: unknown }).system ?? '');
}

/**
 * Issue 17, abstention: when the loaded data cannot answer — a missing attribute, a region the
 * data does not cover, a dataset not loaded — the agent must say so and name what to load. The
 * scripted model here answers only from what it was sent, so each scenario proves the prompt and
 * the tool results give a model what it needs to abstain: the rule in the system prompt, the
 * real field list, the error naming the missing column, the extent, the layers that exist.
 */
describe('abstention: the data cannot answer, and the agent is told enough to say so', { skip: !existsSync(COUNTRIES) }, () => {
  const session = useAppSession();

  it('a missing attribute: the fields come back, the filter on a made-up field fails naming the real ones', async () => {
    const { app } = await session.openApp();
    const model = session.model;
    const from = model.requests.length;
    let fields: string[] = [];
    model.script([
      { toolCalls: [{ name: 'layers_load', arguments: { path: COUNTRIES, name: 'countries' } }] },
      { toolCalls: [{ name: 'inspect_layer_info', arguments: { layer: 'countries' } }] },
      (body) => {
        fields = ((lastToolResult(body).data!.fields as { name: string }[]) ?? []).map((f) => f.name);
        return { toolCalls: [{ name: 'inspect_query_features', arguments: { layer: 'countries', where: 'gdp_per_capita > 10000' } }] };
      },
      (body) => {
        const { error } = lastToolResult(body);
        return {
          text: `The countries layer has no GDP field (${error?.code}; its fields: ${fields.join(', ')}). Load a layer with GDP per capita by country to answer.`,
        };
      },
    ]);
    await app.askAgent('Which South American countries have a GDP per capita above 10,000?');
    await app.approvePending();
    await app.waitForLayer('countries');
    const answer = await app.waitForMessage('assistant', /no GDP field/);
    await app.waitForRunIdle();

    const requests = model.requests.slice(from);
    assert.match(systemPrompt(requests[0]!), /If the loaded data cannot answer/, 'the rule is in the system prompt');
    assert.match(systemPrompt(requests[0]!), /When the data cannot answer/, 'and in the always-loaded inspect skill');
    assert.deepEqual(fields, ['país', 'continente', 'población', 'área_km²', 'vida_años'], 'the real fields, as named in the file');
    const failed = lastToolResult(requests[3]!);
    assert.equal(failed.ok, false);
    assert.match(`${failed.error!.message} ${failed.error!.hint ?? ''}`, /gdp_per_capita/, 'the error names the missing column');
    assert.match(answer, /Load a layer with GDP/);
    await app.screenshot('abstain-1-missing-field');
  });

  it('a region not covered: a filter over Spain finds nothing, and the result says the box misses the layer', async () => {
    const { app } = await session.openApp();
    const model = session.model;
    const from = model.requests.length;
    const SPAIN = [-9.5, 36.0, 3.3, 43.8];
    model.script([
      { toolCalls: [{ name: 'inspect_query_features', arguments: { layer: 'countries', bbox: SPAIN, include_geometry: false } }] },
      (body) => {
        const data = lastToolResult(body).data!;
        return {
          text:
            data.total_count === 0 && typeof data.note === 'string'
              ? `No data for Spain: ${data.note} Load a layer covering Europe.`
              : `Found ${String(data.total_count)}.`,
        };
      },
    ]);
    await app.askAgent('What is the population of Spain?');
    const answer = await app.waitForMessage('assistant', /No data for Spain/);
    await app.waitForRunIdle();
    const result = lastToolResult(model.requests[from + 1]!).data!;
    assert.equal(result.total_count, 0);
    assert.match(String(result.note), /outside the layer's extent \[-81\.411, -55\.612, -34\.73, 12\.437\]/);
    assert.match(answer, /Load a layer covering Europe/);
  });

  it('a dataset not loaded: the error lists the layers that exist; a point outside the DEM reads as outside, not as a value', async () => {
    const { app } = await session.openApp();
    const model = session.model;
    const from = model.requests.length;
    const AIRPORT = [-34.9236, -8.1265]; // Recife airport, south of the Olinda DEM
    const OLINDA = [-34.855, -8.01];
    model.script([
      { toolCalls: [{ name: 'inspect_sample_raster', arguments: { layer: 'elevation', points: [AIRPORT] } }] },
      (body) => {
        const { error } = lastToolResult(body);
        return {
          text: `No elevation layer is loaded (${error!.code}: ${error!.message} ${error!.hint ?? ''}). Load a DEM covering Recife.`,
        };
      },
    ]);
    await app.askAgent('What is the elevation at Recife airport?');
    const first = await app.waitForMessage('assistant', /No elevation layer is loaded/);
    await app.waitForRunIdle();
    assert.match(first, /countries/, 'the error names the layers the project has');
    assert.match(first, /Load a DEM/);

    model.script([
      { toolCalls: [{ name: 'layers_load', arguments: { path: DEM, name: 'olinda_dem' } }] },
      { toolCalls: [{ name: 'inspect_sample_raster', arguments: { layer: 'olinda_dem', points: [AIRPORT, OLINDA] } }] },
      (body) => {
        const points = lastToolResult(body).data!.samples as { pixel: unknown; values: Record<string, number | null> }[];
        const [airport, olinda] = points;
        return {
          text:
            airport!.pixel === null
              ? `The airport is outside the DEM (it covers Olinda only); in Olinda the elevation is ${String(Object.values(olinda!.values)[0])} m. Load a DEM covering the airport.`
              : `The airport elevation is ${String(Object.values(airport!.values)[0])} m.`,
        };
      },
    ]);
    await app.askAgent('Load the Olinda DEM and try again.');
    await app.approvePending();
    await app.waitForLayer('olinda_dem');
    const second = await app.waitForMessage('assistant', /outside the DEM/);
    assert.match(second, /in Olinda the elevation is -?\d/);
    assert.ok(model.requests.length > from + 3);
    await app.screenshot('abstain-3-not-loaded');
  });
});
