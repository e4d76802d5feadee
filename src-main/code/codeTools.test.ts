import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { describe, test } from 'node:test';
import type { HandleName } from '../../src-shared/tools/handles.js';
import type { ToolContext, ToolDefinition } from '../../src-shared/tools/toolSdk.js';
import { ToolFailure } from '../../src-shared/tools/toolResult.js';
import { gdal } from '../gis-worker/gdal.js';
import type { ComposedToolDeps } from '../composition/composedTools.js';
import { PrivatePaths } from '../security/privatePaths.js';
import { decideApproval } from '../tool-host/approvalPolicy.js';
import { ToolRegistry } from '../tool-host/toolRegistry.js';
import { createCodeTools } from './codeTools.js';
import { codeRunKit, skipReason } from './testing/codeRunKit.js';

const kit = codeRunKit();

function tool(): ToolDefinition {
  const deps = {
    store: { layers: { list: () => kit.layers.map((l) => ({ ...l, id: l.name })) } },
    outputsDir: () => kit.outputsDir,
    privatePaths: new PrivatePaths([kit.home], [kit.outputsDir]),
    distMainDir: '/nonexistent',
  } as unknown as ComposedToolDeps;
  const [def] = createCodeTools(deps, { snippetHost: kit.snippetHost, broker: kit.broker });
  return def!;
}

const ctx = () =>
  ({ signal: new AbortController().signal, progress: () => {}, handles: {}, caller: 'model' }) as unknown as ToolContext<HandleName>;

describe('code.run_js: the tool', () => {
  test('is destructive: always asks, never remembered, refused and not offered in Plan mode', () => {
    const def = tool();
    assert.equal(def.id, 'code.run_js');
    assert.equal(def.safety, 'destructive');
    for (const mode of ['ask', 'auto'] as const)
      for (const granted of [false, true])
        assert.deepEqual(decideApproval({ def, caller: 'model', mode, askForReads: false, granted }), { kind: 'ask', rememberable: false });
    // The person's own call from the interface asks too (destructive).
    assert.deepEqual(decideApproval({ def, caller: 'user', mode: 'auto', askForReads: false, granted: true }), {
      kind: 'ask',
      rememberable: false,
    });
    assert.equal(decideApproval({ def, caller: 'model', mode: 'plan', askForReads: false, granted: false }).kind, 'refuse');
    const registry = new ToolRegistry([def]);
    assert.deepEqual(
      registry.forModel({ readOnly: true }).map((t) => t.wireName),
      [],
    );
    assert.deepEqual(
      registry.forModel().map((t) => t.wireName),
      ['code_run_js'],
    );
  });

  test('its description carries the API summary, kept short', () => {
    const def = tool();
    for (const name of ['layers', 'output(', 'geo', 'print(', 'features(', 'read(', 'addFeatures', 'write('])
      assert.ok(def.description.includes(name), name);
    assert.ok(def.description.length < 4500, `${def.description.length} characters`);
  });

  test('arguments: code and a one-line intent are required, bounded', () => {
    const def = tool();
    assert.equal(def.input.safeParse({ code: 'print(1)' }).success, false);
    assert.equal(def.input.safeParse({ code: 'print(1)', intent: 'Prints one.\nAnd more.' }).success, false);
    assert.equal(def.input.safeParse({ code: 'print(1)', intent: 'x'.repeat(201) }).success, false);
    assert.equal(def.input.safeParse({ code: 'x'.repeat(20_001), intent: 'Too long.' }).success, false);
    assert.equal(def.input.safeParse({ code: 'print(1)', intent: 'Prints one.', extra: 1 }).success, false);
    assert.equal(def.input.safeParse({ code: 'print(1)', intent: 'Prints one.' }).success, true);
  });

  test('prepare: a syntax error comes back before anyone is asked; the preview names the language and intent', async () => {
    const def = tool();
    await assert.rejects(
      def.prepare!({ code: 'const a = ;', intent: 'Breaks.' }, ctx()),
      (e: unknown) => e instanceof ToolFailure && e.code === 'invalid_params' && /syntax_error at line 1, column 11/.test(e.message),
    );
    const prepared = await def.prepare!({ code: 'print(1)', intent: 'Prints one.' }, ctx());
    assert.equal(prepared.preview?.language, 'javascript');
    assert.equal(prepared.preview?.intent, 'Prints one.');
    assert.equal(prepared.preview?.layers, 'nc, elev');
  });

  test('execute: outputs come back as layers to load; long printed text is summarised', { skip: skipReason }, async () => {
    const def = tool();
    const data = (await def.execute(
      {
        code: `const nc = await layers.open('nc');
const out = await output('centroids', 'gpkg', { geometryType: 'Point', srs: 4267, fields: [{ name: 'name', type: 'string' }] });
const rows = [];
for await (const f of nc.features({ limit: 10 })) rows.push({ geometry: await geo.centroid(f.geometry), properties: { name: f.properties.NAME } });
await out.addFeatures(rows);
print('y'.repeat(2500));`,
        intent: 'Makes the centroids of ten counties.',
      },
      ctx(),
    )) as { printed: string; outputs: { name: string; path: string }[]; load_layers: { path: string; name: string }[] };
    assert.equal(data.outputs.length, 1);
    assert.deepEqual(data.load_layers, [{ path: data.outputs[0]!.path, name: 'centroids' }]);
    assert.ok(existsSync(data.outputs[0]!.path));
    const ds = gdal.open(data.outputs[0]!.path);
    assert.equal(ds.layers.get(0).features.count(), 10);
    assert.equal(ds.layers.get(0).geomType, gdal.wkbPoint);
    ds.close();
    assert.equal(data.printed, `${'y'.repeat(2000)}… 501 more characters not shown (2501 printed in all)`);
    assert.equal(def.notice?.(data), 'Code made centroids');
  });

  test('execute: a failure is a ToolFailure the model can read', { skip: skipReason }, async () => {
    const def = tool();
    await assert.rejects(
      def.execute({ code: 'print("a");\nnull.x;', intent: 'Fails.' }, ctx()),
      (e: unknown) =>
        e instanceof ToolFailure &&
        e.code === 'handler_error' &&
        /^exception at line 2, column 6: TypeError: Cannot read properties of null/.test(e.message) &&
        /printed before it ended:\na/.test(e.message),
    );
  });
});
