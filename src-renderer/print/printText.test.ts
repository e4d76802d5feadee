import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { attributionLine, attributionText, coverCrop, localIsoDate } from './printText.js';

describe('print page text', () => {
  it('attribution: tags dropped, entities decoded, spaces collapsed', () => {
    assert.equal(
      attributionText('<a href="https://www.openstreetmap.org/copyright">&copy; OpenStreetMap</a>  contributors &amp; &#169;&#x20;x'),
      '© OpenStreetMap contributors & © x',
    );
  });
  it('one line, each attribution once, empty ones left out', () => {
    assert.equal(
      attributionLine(['Made with Natural Earth', undefined, '', 'Made with Natural Earth', '© OSM']),
      'Made with Natural Earth · © OSM',
    );
  });
  it('the local date in ISO form', () => {
    assert.equal(localIsoDate(new Date(2026, 2, 4, 23, 59)), '2026-03-04');
  });
  it('cover crop keeps the centre: a wide image loses its sides, a tall one its top and bottom', () => {
    assert.deepEqual(coverCrop(1000, 500, 1), { x: 250, y: 0, width: 500, height: 500 });
    assert.deepEqual(coverCrop(500, 1000, 2), { x: 0, y: 375, width: 500, height: 250 });
  });
});
