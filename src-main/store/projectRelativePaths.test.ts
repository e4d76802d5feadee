import assert from 'node:assert/strict';
import { test } from 'node:test';
import { projectRelativePaths } from './projectRelativePaths.js';

const paths = projectRelativePaths('/work/study');

test('files below the project folder are stored relative to it and read back absolute', () => {
  assert.equal(paths.toStored('/work/study/data/roads.gpkg'), './data/roads.gpkg');
  assert.equal(paths.toStored('/work/study/roads.shp'), './roads.shp');
  assert.equal(paths.fromStored('./data/roads.gpkg'), '/work/study/data/roads.gpkg');
  const moved = projectRelativePaths('/mnt/usb/study');
  assert.equal(moved.fromStored(paths.toStored('/work/study/data/roads.gpkg')), '/mnt/usb/study/data/roads.gpkg');
});

test('files elsewhere, the folder itself and look-alike folders stay absolute', () => {
  assert.equal(paths.toStored('/work/other/roads.gpkg'), '/work/other/roads.gpkg');
  assert.equal(paths.toStored('/work/study-2/roads.gpkg'), '/work/study-2/roads.gpkg');
  assert.equal(paths.toStored('/work/study'), '/work/study');
  assert.equal(paths.fromStored('/data/roads.gpkg'), '/data/roads.gpkg');
});

test('archives keep their VSI prefix; network sources and connection strings pass unchanged', () => {
  assert.equal(paths.toStored('/vsizip//work/study/a.zip/roads.shp'), '/vsizip/./a.zip/roads.shp');
  assert.equal(paths.fromStored('/vsizip/./a.zip/roads.shp'), '/vsizip//work/study/a.zip/roads.shp');
  assert.equal(paths.toStored('/vsigzip//work/study/a.geojson.gz'), '/vsigzip/./a.geojson.gz');
  for (const s of ['/vsicurl/https://example.com/a.tif', 'https://example.com/a.geojson', 'PG:dbname=gis', '/vsimem/x.tif'])
    assert.equal(paths.fromStored(paths.toStored(s)), s);
  assert.equal(paths.toStored('/vsicurl/https://example.com/work/study/a.tif'), '/vsicurl/https://example.com/work/study/a.tif');
});

test('a stored path climbing out of the folder resolves to where it points (the boundary below judges it)', () => {
  assert.equal(paths.fromStored('./../../etc/passwd'), '/etc/passwd');
});
