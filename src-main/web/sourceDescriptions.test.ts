import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { classifySource } from '../../src-shared/security/sourceClass.js';
import { datasetReferences } from '../security/datasetReferences.js';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serviceDescription, vsicurlPath, webSourceOrigin, webSourceUrlProblem } from './sourceDescriptions.js';

describe('network map sources: URLs checked, GDAL descriptions written', () => {
  it('accepts http(s) templates with {z}/{x}/{y} and plain service URLs', () => {
    assert.equal(webSourceUrlProblem('xyz', 'https://tile.example.org/{z}/{x}/{y}.png'), null);
    assert.equal(webSourceUrlProblem('tms', 'http://127.0.0.1:8080/t/{z}/{x}/{y}.png?key=1'), null);
    assert.equal(webSourceUrlProblem('wms', 'https://maps.example.org/wms?map=a'), null);
    assert.equal(webSourceUrlProblem('cog', 'https://data.example.org/x.tif'), null);
    assert.equal(webSourceUrlProblem('fgb', 'http://[::1]:9000/x.fgb'), null);
  });

  it('refuses credentials, other schemes, other placeholders and GDAL’s own syntax', () => {
    const bad: [Parameters<typeof webSourceUrlProblem>[0], string, RegExp][] = [
      ['xyz', 'https://u:p@tile.example.org/{z}/{x}/{y}.png', /user name or password/],
      ['cog', 'https://u@data.example.org/x.tif', /user name or password/],
      ['cog', 'file:///etc/passwd', /only http/],
      ['fgb', 'ftp://example.org/x.fgb', /only http/],
      ['cog', '/vsicurl/https://example.org/x.tif', /not a valid absolute URL/],
      ['xyz', 'https://{s}.tile.example.org/{z}/{x}/{y}.png', /only the placeholders/],
      ['xyz', 'https://tile.example.org/{z}/{x}/{y}/{-y}.png', /only the placeholders/],
      ['xyz', 'https://tile.example.org/{z}/{x}.png', /\{y\} is missing/],
      ['xyz', 'https://tile.example.org/${z}/{z}/{x}/{y}.png', /'\$'/],
      ['wms', 'https://maps.example.org/wms/{z}', /takes no placeholders/],
      ['xyz', 'https://{z}.example.org/{z}/{x}/{y}.png', /host/],
      ['cog', 'https://example.org/a b.tif', /spaces/],
      ['cog', 'https://example.org/x.tif#frag', /fragment/],
    ];
    for (const [kind, url, why] of bad) assert.match(webSourceUrlProblem(kind, url) ?? 'accepted', why, url);
  });

  it('names the origin the dialog shows and the gate compares', () => {
    assert.equal(webSourceOrigin('xyz', 'https://Tile.Example.org/{z}/{x}/{y}.png'), 'https://tile.example.org:443');
    assert.equal(webSourceOrigin('cog', 'http://127.0.0.1:8080/a.tif'), 'http://127.0.0.1:8080');
    // The dispatcher's own classification of the argument agrees.
    const c = classifySource('https://tile.example.org/{z}/{x}/{y}.png');
    assert.equal(c.kind === 'network' && c.origin, 'https://tile.example.org:443');
  });

  it('writes GDAL WMS/WMTS descriptions whose server the source inspection finds, escaped', () => {
    const dir = mkdtempSync(join(tmpdir(), 'mapwright-src-'));
    const xyz = serviceDescription('xyz', 'https://t.example.org/{z}/{x}/{y}.png?a=1&b=2');
    assert.match(xyz, /<Service name="TMS">/);
    assert.match(xyz, /<ServerUrl>https:\/\/t\.example\.org\/\$\{z\}\/\$\{x\}\/\$\{y\}\.png\?a=1&amp;b=2<\/ServerUrl>/);
    assert.match(xyz, /<YOrigin>top<\/YOrigin>/);
    assert.match(serviceDescription('tms', 'https://t.example.org/{z}/{x}/{y}.png'), /<YOrigin>bottom<\/YOrigin>/);
    const wms = serviceDescription('wms', 'https://m.example.org/wms', 'a<b');
    assert.match(wms, /<Service name="WMS">/);
    assert.match(wms, /<ServerUrl>https:\/\/m\.example\.org\/wms\?<\/ServerUrl>/);
    assert.match(wms, /<Layers>a&lt;b<\/Layers>/);
    const wmts = serviceDescription('wmts', 'https://w.example.org/WMTSCapabilities.xml', 'base');
    assert.match(wmts, /<GDAL_WMTS>/);
    for (const [name, text, origin] of [
      ['x.xml', xyz, 'https://t.example.org/'],
      ['w.xml', wms, 'https://m.example.org/'],
      ['t.xml', wmts, 'https://w.example.org/'],
    ] as const) {
      writeFileSync(join(dir, name), text);
      const refs = datasetReferences(join(dir, name)).sources;
      assert.equal(refs.length, 1, name);
      assert.ok(refs[0]!.startsWith(origin), refs[0]);
    }
    assert.equal(vsicurlPath('cog', 'https://d.example.org/x.tif'), '/vsicurl/https://d.example.org/x.tif');
    assert.equal(vsicurlPath('xyz', 'https://d.example.org/{z}/{x}/{y}.png'), null);
  });
});
