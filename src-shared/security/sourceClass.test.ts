import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { classifySource, originOfTarget } from './sourceClass.js';
import { crsTextProblem } from './crsText.js';

const kind = (s: string) => classifySource(s).kind;

describe('classifySource', () => {
  it('calls absolute paths local, with or without a sublayer', () => {
    assert.deepEqual(classifySource('/data/rivers.gpkg|layername=rivers'), { kind: 'local', path: '/data/rivers.gpkg' });
    assert.equal(kind('C:\\data\\a.shp'), 'local');
    assert.equal(kind('C:/data/a.shp'), 'local');
  });

  it('sees through archives to the local file, and through them to the network', () => {
    assert.deepEqual(classifySource('/vsizip//data/a.zip/roads.shp'), { kind: 'archive', path: '/data/a.zip/roads.shp' });
    assert.deepEqual(classifySource('/vsizip/{/data/a b.zip}/x.shp'), { kind: 'archive', path: '/data/a b.zip/x.shp' });
    assert.equal(kind('/vsigzip//data/a.geojson.gz'), 'archive');
    assert.equal(kind('/vsitar//data/a.tar/b.tif'), 'archive');
    assert.equal(kind('/vsisubfile/100_200,/data/a.bin'), 'archive');
    const remote = classifySource('/vsizip//vsicurl/https://example.org/a.zip/b.shp');
    assert.equal(remote.kind, 'network');
    assert.equal(remote.kind === 'network' && remote.origin, 'https://example.org:443');
    assert.equal(kind('/vsizip/{/vsicurl/http://h/a.zip}/b.shp'), 'network');
  });

  it('calls every network spelling network, whatever its case', () => {
    for (const s of [
      '/vsicurl/http://127.0.0.1:9/x.tif',
      '/VSICURL/http://h/x.tif',
      '/vsicurl_streaming/https://h/x.tif',
      '/vsis3/bucket/key.tif',
      '/vsigs/b/k',
      '/vsiaz/c/b',
      '/vsiadls/c/b',
      '/vsioss/b/k',
      '/vsiswift/c/o',
      '/vsiwebhdfs/http://h/x',
      'http://h/x.geojson',
      'HTTPS://h/x.geojson',
      'ftp://h/x.zip',
      'PG:host=127.0.0.1 dbname=x',
      'pg:dbname=x',
      'WFS:http://h/wfs',
      'WMS:http://h/wms?',
      'MySQL:db,host=h',
      'ODBC:dsn',
      'OAPIF:http://h/',
      'ESRIJSON:http://h/q',
      'GeoJSON:http://h/x',
      'EEDA:',
      'NGW:http://h/resource/1',
      'Elasticsearch:http://h:9200',
      'GPKG:/vsicurl/http://h/a.gpkg:t',
      'NETCDF:"http://h/a.nc":v',
      'SOMETHINGNEW:whatever',
      '\\\\fileserver\\share\\a.shp',
    ]) {
      assert.equal(kind(s), 'network', s);
    }
  });

  it('keeps subdataset syntax over local files local', () => {
    assert.deepEqual(classifySource('GPKG:/data/a.gpkg:tiles'), { kind: 'local', path: '/data/a.gpkg' });
    assert.deepEqual(classifySource('NETCDF:"/data/a.nc":tas'), { kind: 'local', path: '/data/a.nc' });
    assert.deepEqual(classifySource('GTIFF_DIR:2:/data/a.tif'), { kind: 'local', path: '/data/a.tif' });
  });

  it('refuses inline datasets, internal files, file:// URLs and relative paths', () => {
    for (const s of [
      '<GDAL_WMS><Service name="TMS"><ServerUrl>http://h/${z}</ServerUrl></Service></GDAL_WMS>',
      '<OGRVRTDataSource/>',
      '{"type":"FeatureCollection","features":[]}',
      '/vsimem/x.tif',
      '/vsistdin/',
      'file:///etc/passwd',
      'data/rivers.gpkg',
      '../secrets/model-keys.json',
      '~/a.gpkg',
      '/data/a.gpkg\n/vsicurl/http://h',
      '',
    ]) {
      assert.equal(kind(s), 'refused', s);
    }
  });

  it('takes a PostGIS table only as postgis://<saved connection id>, never a host or a connection string', () => {
    assert.deepEqual(classifySource('postgis://pg-1a2b|layername=public.roads'), { kind: 'database', connectionId: 'pg-1a2b' });
    assert.deepEqual(classifySource('POSTGIS://office'), { kind: 'database', connectionId: 'office' });
    // An id is all it says: a host, port, user, path or query in its place is refused.
    for (const s of [
      'postgis://127.0.0.1:5432/db',
      'postgis://user:pw@host',
      'postgis://../x',
      'postgis://Office',
      'postgis://',
      'postgis://a b',
      '/vsizip/postgis://office',
      'GPKG:postgis://office:t',
    ]) {
      assert.notEqual(kind(s), 'database', s);
      assert.notEqual(kind(s), 'local', s);
    }
    // The driver's own connection strings and URLs stay network sources nobody can approve.
    for (const s of ['PG:host=127.0.0.1 dbname=x', 'postgresql://127.0.0.1/x', 'postgres://h/x']) assert.equal(kind(s), 'network', s);
  });

  it('gives origins with the default port explicit, as the gate compares them', () => {
    assert.equal(originOfTarget('http://Example.org/a'), 'http://example.org:80');
    assert.equal(originOfTarget('https://h:8443/a'), 'https://h:8443');
    assert.equal(originOfTarget('http://0x7f000001:5/a'), 'http://127.0.0.1:5');
    assert.equal(originOfTarget('dbname=x host=h'), null);
  });
});

describe('crsTextProblem', () => {
  it('accepts codes, WKT and PROJ strings', () => {
    for (const t of [
      'EPSG:4326',
      '4326',
      'OGC:CRS84',
      'ESRI:54009',
      'WGS84',
      'GEOGCS["WGS 84",DATUM["x",SPHEROID["a",6378137,298.25]]]',
      '+proj=utm +zone=32 +datum=WGS84',
    ]) {
      assert.equal(crsTextProblem(t), null, t);
    }
  });
  it('refuses files and URLs, which GDAL would read or fetch', () => {
    for (const t of [
      '/etc/passwd',
      'http://h/crs.wkt',
      'https://h/epsg.io/4326.wkt',
      'file:///x.prj',
      '+init=/tmp/x:1',
      '+proj=longlat +nadgrids=/tmp/g.gsb',
      'urn:ogc:def:crs:EPSG::4326x',
      '../x.prj',
    ]) {
      assert.notEqual(crsTextProblem(t), null, t);
    }
  });
});
