import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { FunctionContext } from './types.js';
import { CRS_FUNCTIONS } from './crsFunctions.js';

const ctx = {} as FunctionContext;
const definition = (epsg: number) => CRS_FUNCTIONS['crs.definition']({ epsg }, ctx);

describe('crs.definition', () => {
  it('answers GDAL’s PROJ string for an EPSG code', async () => {
    assert.equal((await definition(32617)).proj4, '+proj=utm +zone=17 +datum=WGS84 +units=m +no_defs');
    assert.match((await definition(4267)).proj4, /^\+proj=longlat .*\+datum=NAD27/);
  });
  it('says so for a code GDAL does not know', async () => {
    await assert.rejects(definition(999_999), /EPSG:999999/);
  });
});
