import assert from 'node:assert/strict';
import { it } from 'node:test';
import { unpackedPath } from './unpackedPath.js';

it('maps a path inside app.asar to app.asar.unpacked, and leaves others alone', () => {
  assert.equal(
    unpackedPath('/opt/Mapwright/resources/app.asar/node_modules/gdal-async'),
    '/opt/Mapwright/resources/app.asar.unpacked/node_modules/gdal-async',
  );
  assert.equal(unpackedPath('C:\\Mapwright\\resources\\app.asar\\dist\\main'), 'C:\\Mapwright\\resources\\app.asar.unpacked\\dist\\main');
  assert.equal(unpackedPath('/work/main/node_modules/gdal-async'), '/work/main/node_modules/gdal-async');
  assert.equal(unpackedPath('/x/app.asar.unpacked/y'), '/x/app.asar.unpacked/y');
});
