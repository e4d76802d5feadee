import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  AGGREGATE_FUNCTIONS,
  functionRefusal,
  isAllowedFunction,
  QUERY_FUNCTIONS,
  SCALAR_FUNCTIONS,
  TABLE_FUNCTIONS,
  WINDOW_FUNCTIONS,
} from './sqlFunctions.js';

/**
 * Families that read or write files, reach the network, load code or change the database.
 * None of their members may be on the allow-list, whatever new name they get.
 */
const DANGEROUS =
  /^(ogr_|gdal_|load_extension$|readfile$|writefile$|edit$|fts|rtree|import|export|blobfromfile$|blobtofile$|xb_|create|drop|init|recover|discard|gpkg|topo|network|zipfile|pragma|proj_|sqlproc|storedproc|storedvar|wms_|se_|rl2_|sqlite_compileoption|sqlite_log|setdecimal|register|unregister|checkspatial|updatelayer|invalidate|autofdo|autogpkg|elementary|st_(add|rem|mod|new|change|move|create|init|validate|spatnet|loginet|getface|getedge|getnode|getlink)[a-z]*$|match$|matchinfo$|snippet$|highlight$|offsets$|bm25$|optimize$|zeroblob$|randomblob$|transform3$|sridfromauthcrs$|importfromepsg$|checkfontfacename$|getfontfamily$)/;

describe('the SQL function allow-list', () => {
  const all = [...QUERY_FUNCTIONS, ...TABLE_FUNCTIONS];

  it('holds no function of a dangerous family (an explicit list, never a prefix)', () => {
    const bad = all.filter((n) => DANGEROUS.test(n) && !['st_addpoint', 'st_removepoint', 'st_addmeasure'].includes(n));
    assert.deepEqual(bad, []);
  });

  it('is lower-case names only, and the scalar subset excludes aggregates and window functions but keeps their two-argument scalar forms', () => {
    for (const n of all) assert.match(n, /^[a-z][a-z0-9_]*$/, n);
    for (const n of WINDOW_FUNCTIONS) assert.equal(SCALAR_FUNCTIONS.has(n), false, n);
    for (const n of ['sum', 'avg', 'count', 'group_concat', 'extent', 'median']) assert.equal(SCALAR_FUNCTIONS.has(n), false, n);
    for (const n of ['min', 'max', 'st_union', 'collect']) assert.ok(SCALAR_FUNCTIONS.has(n) && AGGREGATE_FUNCTIONS.has(n), n);
  });

  it('matches names as SQLite does: ASCII case-insensitive, exact', () => {
    assert.equal(isAllowedFunction('ST_Area', 'query'), true);
    assert.equal(isAllowedFunction('st_area', 'expression'), true);
    assert.equal(isAllowedFunction('ST_AreaX', 'query'), false);
    assert.equal(isAllowedFunction('ſt_area', 'query'), false, 'a long s is not an S to SQLite');
    assert.equal(isAllowedFunction('sum', 'expression'), false);
    assert.equal(isAllowedFunction('json_each', 'query'), false);
    assert.equal(isAllowedFunction('json_each', 'table'), true);
    assert.equal(isAllowedFunction('pragma_table_info', 'table'), false);
  });

  it('explains a refusal: the family, or the nearest allowed names, and what is allowed', () => {
    assert.match(functionRefusal('OGR_GEOCODE', 'query'), /^OGR_GEOCODE\(\) is not allowed: GDAL's ogr_\* functions .* Allowed are/);
    assert.match(functionRefusal('ImportSHP', 'query'), /imports or exports files/);
    assert.match(functionRefusal('CreateSpatialIndex', 'query'), /changes the database/);
    assert.match(functionRefusal('st_buffr', 'query'), /Did you mean st_buffer/);
    assert.match(functionRefusal('sum', 'expression'), /^sum\(\) is not allowed here: it is an aggregate/);
    assert.doesNotMatch(functionRefusal('foo', 'expression'), /aggregates/);
    assert.match(functionRefusal('pragma_table_info', 'table'), /json_each, json_tree/);
  });
});
