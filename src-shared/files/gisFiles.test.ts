import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isGisFile, mainFileOf } from './gisFiles.js';

describe('gis files', () => {
  it('marks data files by extension, case-insensitively', () => {
    assert.ok(isGisFile('nc.gpkg'));
    assert.ok(isGisFile('DEM.TIF'));
    assert.ok(!isGisFile('notes.txt'));
    assert.ok(!isGisFile('.gpkg'));
  });
  it('loads the .shp of a dropped Shapefile set, whatever the order', () => {
    assert.equal(mainFileOf(['scot_BNG.dbf', 'scot_BNG.prj', 'scot_BNG.shx', 'scot_BNG.shp']), 'scot_BNG.shp');
    assert.equal(mainFileOf(['a.fgb']), 'a.fgb');
    assert.equal(mainFileOf(['readme.txt', 'x.prj']), null);
  });
});
