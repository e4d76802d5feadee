import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  EMPTY_WEB_SOURCE_DRAFT,
  needsLayerName,
  urlHint,
  webSourceDraftProblem,
  webSourceParams,
  type WebSourceDraft,
} from './WebSourceFormat.js';

const draft = (over: Partial<WebSourceDraft>): WebSourceDraft => ({ ...EMPTY_WEB_SOURCE_DRAFT, ...over });

describe('the add-web-source form', () => {
  it('accepts an XYZ template with its placeholders', () => {
    assert.equal(webSourceDraftProblem(draft({ url: ' https://t.example.org/{z}/{x}/{y}.png ' })), null);
    assert.equal(webSourceDraftProblem(draft({ kind: 'tms', url: 'http://127.0.0.1:8080/tiles/{z}/{x}/{y}.png' })), null);
  });

  it('asks for the URL and for the tile placeholders', () => {
    assert.match(webSourceDraftProblem(draft({ url: '  ' }))!, /Enter the URL/);
    assert.match(webSourceDraftProblem(draft({ url: 'https://t.example.org/{z}/{x}.png' }))!, /missing \{y\}/);
  });

  it('takes http and https only', () => {
    assert.match(webSourceDraftProblem(draft({ kind: 'cog', url: 'file:///etc/passwd' }))!, /Only http/);
    assert.match(webSourceDraftProblem(draft({ kind: 'fgb', url: 'not a url' }))!, /not a valid/);
    assert.equal(webSourceDraftProblem(draft({ kind: 'fgb', url: 'https://example.org/a.fgb' })), null);
  });

  it('needs the layer name for WMS and WMTS only', () => {
    assert.equal(needsLayerName('wms'), true);
    assert.equal(needsLayerName('wmts'), true);
    assert.equal(needsLayerName('xyz'), false);
    assert.match(webSourceDraftProblem(draft({ kind: 'wms', url: 'https://example.org/wms' }))!, /WMS source needs the layer name/);
    assert.equal(webSourceDraftProblem(draft({ kind: 'wmts', url: 'https://example.org/wmts', layer: 'ortho' })), null);
  });

  it('hints at the template for tiled kinds', () => {
    assert.match(urlHint('xyz')!, /\{z\}, \{x\} and \{y\}/);
    assert.equal(urlHint('cog'), null);
  });

  it('sends trimmed arguments without empty or irrelevant fields', () => {
    assert.deepEqual(webSourceParams(draft({ url: ' https://t.example.org/{z}/{x}/{y}.png ', layer: 'ignored', name: '  ' })), {
      kind: 'xyz',
      url: 'https://t.example.org/{z}/{x}/{y}.png',
    });
    assert.deepEqual(webSourceParams(draft({ kind: 'wms', url: 'https://example.org/wms', layer: ' roads ', name: ' Roads ' })), {
      kind: 'wms',
      url: 'https://example.org/wms',
      layer: 'roads',
      name: 'Roads',
    });
  });
});
