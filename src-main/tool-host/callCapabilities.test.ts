import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { capabilityValues } from '../../src-shared/security/paramCapabilities.js';
import type { ToolDefinition } from '../../src-shared/tools/toolSdk.js';
import { builtInTools } from '../../tools/index.js';
import { assessCall } from './callCapabilities.js';

const tool = (id: string) => builtInTools.find((t) => t.id === id) as ToolDefinition;
const nothingPrivate = { isPrivate: () => false, mentionedIn: () => false };

describe('call capabilities of the built-in tools', () => {
  it('finds the declared sources and SQL in validated arguments', () => {
    assert.deepEqual(capabilityValues(tool('layers.load').input, { path: '/a.gpkg', name: 'x' }), { sources: ['/a.gpkg'], sql: [] });
    assert.deepEqual(capabilityValues(tool('inspect.describe_path').input, { path: '/d' }), { sources: ['/d'], sql: [] });
    assert.deepEqual(capabilityValues(tool('inspect.sql').input, { sql: 'SELECT 1' }), { sources: [], sql: ['SELECT 1'] });
    assert.deepEqual(capabilityValues(tool('inspect.query_features').input, { layer: 'x', where: 'a > 1' }), {
      sources: [],
      sql: ['a > 1'],
    });
    assert.deepEqual(capabilityValues(tool('inspect.query_features').input, { layer: 'x' }), { sources: [], sql: [] });
    assert.deepEqual(capabilityValues(tool('layers.set_opacity').input, { layer: 'x', opacity: 0.5 }), { sources: [], sql: [] });
  });

  it('makes a local VRT that reads a URL a network call, and one that reads a private file a refusal', () => {
    const dir = mkdtempSync(join(tmpdir(), 'mw-caps-'));
    const remote = join(dir, 'remote.vrt');
    writeFileSync(
      remote,
      '<OGRVRTDataSource><OGRVRTLayer name="x"><SrcDataSource>/vsicurl/https://example.org/x.geojson</SrcDataSource></OGRVRTLayer></OGRVRTDataSource>',
    );
    const nested = join(dir, 'nested.vrt');
    writeFileSync(
      nested,
      '<OGRVRTDataSource><OGRVRTLayer name="y"><SrcDataSource relativeToVRT="1">remote.vrt</SrcDataSource></OGRVRTLayer></OGRVRTDataSource>',
    );
    const load = tool('layers.load');
    const a = assessCall(load, { path: remote }, nothingPrivate);
    assert.deepEqual(a.ok && a.caps.networkOrigins, ['https://example.org:443']);
    const b = assessCall(load, { path: nested }, nothingPrivate);
    assert.deepEqual(b.ok && b.caps.networkOrigins, ['https://example.org:443'], 'followed through a relative VRT');
    const c = assessCall(load, { path: nested }, { isPrivate: (p) => p === remote, mentionedIn: () => false });
    assert.equal(!c.ok && !c.error.ok && c.error.error.code, 'not_allowed');
    const local = assessCall(load, { path: join(dir, 'plain.gpkg') }, nothingPrivate);
    assert.deepEqual(local.ok && local.caps, { networkOrigins: [], carriesPathOrSql: true });
  });
});
