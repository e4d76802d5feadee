import assert from 'node:assert/strict';
import { test } from 'node:test';
import { catalogues } from './catalogues/index.js';
import { i18n } from './i18n.js';

/**
 * Words that stay the same in Chinese: names, acronyms, units and formats (and messages that
 * are only a placeholder or a symbol). A zh-CN message equal to its English one must be one of
 * these, or listed below by key.
 */
const SAME_IN_BOTH =
  /^[\s\d{}.,:;()/+\-–—×…·%°|#<>=*'"`A-Z]*$|^(GeoJSON|CRS|EPSG|PDF|PNG|SVG|JSON|CSV|URL|API|OK|MCP|WMS|WMTS|XYZ|OGC|Python|JavaScript|Mapwright|OpenStreetMap)$/;
const SAME_BY_KEY = new Set<string>([]);

test('every area has the same keys in English and Simplified Chinese', () => {
  for (const [area, c] of Object.entries(catalogues)) {
    assert.deepEqual(Object.keys(c['zh-CN']).sort(), Object.keys(c.en).sort(), `area ${area}`);
  }
});

test('no Chinese message is empty or left in English', () => {
  for (const [area, c] of Object.entries(catalogues)) {
    const en = c.en as Record<string, string>;
    for (const [key, zh] of Object.entries(c['zh-CN'] as Record<string, string>)) {
      assert.notEqual(zh.trim(), '', `${area}:${key} is empty`);
      if (zh === en[key] && !SAME_IN_BOTH.test(zh) && !SAME_BY_KEY.has(`${area}:${key}`))
        assert.fail(`${area}:${key} is the English text in zh-CN: ${zh}`);
    }
  }
});

test('placeholders are the same in both languages', () => {
  const names = (s: string) => [...s.matchAll(/\{\{\s*(\w+)/g)].map((m) => m[1]).sort();
  for (const [area, c] of Object.entries(catalogues)) {
    const en = c.en as Record<string, string>;
    for (const [key, zh] of Object.entries(c['zh-CN'] as Record<string, string>))
      assert.deepEqual(names(zh), names(en[key]!), `${area}:${key}`);
  }
});

test('i18n switches language and falls back to English', async () => {
  assert.equal(i18n.t('settings:testConnection'), 'Test connection');
  await i18n.changeLanguage('zh-CN');
  assert.equal(i18n.t('settings:testConnection'), '测试连接');
  assert.equal(i18n.t('settings:modelsOffered', { count: 3 }), '该端点提供 3 个模型');
  await i18n.changeLanguage('en');
  assert.equal(i18n.t('settings:modelsOffered', { count: 1 }), '1 model offered by the endpoint');
});
