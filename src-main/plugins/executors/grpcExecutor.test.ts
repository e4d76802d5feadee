/**
 * The `grpc` executor against a real loopback gRPC server started here: a unary call, fields
 * the message does not have, status mapping (INVALID_ARGUMENT, others), the deadline, Stop,
 * the response cap, the proto path kept inside the plugin folder, streaming methods refused,
 * and the SSRF guard (loopback only when its origin is allowed; names resolved once).
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { checkGrpcAddress, runGrpc, type GrpcContext, type GrpcSpec } from './grpcExecutor.js';
import { toolFailureOf } from './testing/toolFailure.js';

const PROTO = `syntax = "proto3";
package test.v1;
import "common/inner.proto";
enum Kind { KIND_UNSPECIFIED = 0; KIND_A = 1; }
message SlopeRequest {
  string name = 1;
  int64 count = 2;
  test.v1.Inner inner = 3;
  map<string, test.v1.Inner> by_name = 4;
  repeated test.v1.Inner items = 5;
}
message SlopeReply { string greeting = 1; int64 count = 2; Kind kind = 3; string big = 4; double total = 5; }
service Slope {
  rpc Compute(SlopeRequest) returns (SlopeReply);
  rpc Watch(SlopeRequest) returns (stream SlopeReply);
}
`;
const INNER = `syntax = "proto3";
package test.v1;
message Inner { double x = 1; }
`;

/** Nested types, a oneof and a bundled well-known type. */
const WKT = `syntax = "proto3";
package geo.v1;
import "google/protobuf/empty.proto";
message Outer {
  message Point { double lon = 1; double lat = 2; }
  Point at = 1;
  oneof pick { string label = 2; int32 code = 3; }
}
service Echo {
  rpc Ping(google.protobuf.Empty) returns (google.protobuf.Empty);
  rpc Echo(Outer) returns (Outer);
}
`;

let root: string;
let pluginDir: string;
let server: grpc.Server;
let port = 0;
let hangStarted: () => void = () => {};

type Req = { name: string; count: string; inner?: { x: number } | null; by_name: Record<string, { x: number }>; items: { x: number }[] };

before(async () => {
  root = mkdtempSync(join(tmpdir(), 'grpc-exec-'));
  pluginDir = join(root, 'plugin');
  mkdirSync(join(pluginDir, 'common'), { recursive: true });
  writeFileSync(join(pluginDir, 'service.proto'), PROTO);
  writeFileSync(join(pluginDir, 'common', 'inner.proto'), INNER);
  writeFileSync(join(root, 'outside.proto'), PROTO);
  symlinkSync(join(root, 'outside.proto'), join(pluginDir, 'link.proto'));
  writeFileSync(join(pluginDir, 'importer.proto'), 'syntax = "proto3";\nimport "../outside.proto";\n');
  writeFileSync(join(pluginDir, 'link-importer.proto'), 'syntax = "proto3";\nimport "link.proto";\n');
  writeFileSync(join(pluginDir, 'wkt.proto'), WKT);

  const def = protoLoader.loadSync(join(pluginDir, 'service.proto'), {
    keepCase: true,
    longs: String,
    defaults: true,
    includeDirs: [pluginDir],
  });
  const pkg = grpc.loadPackageDefinition(def) as unknown as { test: { v1: { Slope: grpc.ServiceClientConstructor } } };
  server = new grpc.Server();
  server.addService(pkg.test.v1.Slope.service, {
    Compute: (call: grpc.ServerUnaryCall<Req, unknown>, cb: grpc.sendUnaryData<unknown>) => {
      const { name } = call.request;
      if (name === 'bad') return cb({ code: grpc.status.INVALID_ARGUMENT, details: 'name must not be bad' });
      if (name === 'missing') return cb({ code: grpc.status.NOT_FOUND, details: 'no such raster' });
      if (name === 'down') return cb({ code: grpc.status.UNAVAILABLE, details: 'warming up' });
      if (name === 'slow') return void setTimeout(() => cb(null, { greeting: 'late' }), 1500);
      if (name === 'hang') {
        hangStarted();
        return; // answers never; the client cancels
      }
      if (name === 'big') return cb(null, { greeting: 'big', big: 'x'.repeat(100_000) });
      const total =
        (call.request.inner?.x ?? 0) +
        Object.values(call.request.by_name).reduce((s, v) => s + v.x, 0) +
        call.request.items.reduce((s, v) => s + v.x, 0);
      cb(null, { greeting: `hello ${name}`, count: String(BigInt(call.request.count) * 2n), kind: 1, total });
    },
    Watch: (call: grpc.ServerWritableStream<Req, unknown>) => call.end(),
  });
  port = await new Promise<number>((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (err, p) => (err ? reject(err) : resolve(p))),
  );
});

after(() => {
  server.forceShutdown();
  rmSync(root, { recursive: true, force: true });
});

const spec = (over: Partial<GrpcSpec> = {}): GrpcSpec => ({
  proto: 'service.proto',
  service: 'test.v1.Slope',
  method: 'Compute',
  address: `127.0.0.1:${port}`,
  ...over,
});

const ctx = (over: Partial<GrpcContext> = {}): GrpcContext => ({
  pluginDir,
  signal: new AbortController().signal,
  timeoutMs: 5000,
  maxBytes: 1024 * 1024,
  egress: { allowedOrigins: new Set([`http://127.0.0.1:${port}`]) },
  ...over,
});

describe('runGrpc', () => {
  test('a unary call sends the arguments and returns the response as a plain object', async () => {
    const { response } = await runGrpc(
      spec(),
      { name: 'ridge', count: '21', inner: { x: 1 }, by_name: { a: { x: 2 } }, items: [{ x: 3 }, { x: 4 }] },
      ctx(),
    );
    assert.deepEqual(response, { greeting: 'hello ridge', count: '42', kind: 'KIND_A', big: '', total: 10 });
  });

  test('a field the message does not have is invalid_params, nested ones too', async () => {
    const top = await toolFailureOf(runGrpc(spec(), { name: 'x', colour: 'red' }, ctx()));
    assert.equal(top.code, 'invalid_params');
    assert.match(top.message, /no field 'colour'/);
    const nested = await toolFailureOf(runGrpc(spec(), { inner: { x: 1, y: 2 } }, ctx()));
    assert.equal(nested.code, 'invalid_params');
    assert.match(nested.message, /'inner\.y'/);
    const inMap = await toolFailureOf(runGrpc(spec(), { by_name: { a: { z: 1 } } }, ctx()));
    assert.match(inMap.message, /'by_name\.a\.z'/);
    const inList = await toolFailureOf(runGrpc(spec(), { items: [{ x: 1 }, { w: 1 }] }, ctx()));
    assert.match(inList.message, /'items\[1\]\.w'/);
    const wrongType = await toolFailureOf(runGrpc(spec(), { inner: 'not an object' }, ctx()));
    assert.equal(wrongType.code, 'invalid_params');
  });

  test('INVALID_ARGUMENT is invalid_params; UNAVAILABLE is retryable; others handler_error with the details', async () => {
    const bad = await toolFailureOf(runGrpc(spec(), { name: 'bad' }, ctx()));
    assert.equal(bad.code, 'invalid_params');
    assert.match(bad.message, /name must not be bad/);
    const down = await toolFailureOf(runGrpc(spec(), { name: 'down' }, ctx()));
    assert.equal(down.code, 'handler_error');
    assert.equal(down.retryable, true);
    const missing = await toolFailureOf(runGrpc(spec(), { name: 'missing' }, ctx()));
    assert.equal(missing.code, 'handler_error');
    assert.equal(missing.retryable, false);
    assert.match(missing.message, /NOT_FOUND.*no such raster/);
  });

  test('the deadline is a retryable timeout', async () => {
    const started = Date.now();
    const err = await toolFailureOf(runGrpc(spec(), { name: 'slow' }, ctx({ timeoutMs: 200 })));
    assert.equal(err.code, 'timeout');
    assert.equal(err.retryable, true);
    assert.ok(Date.now() - started < 1400);
  });

  test('the signal cancels the call', async () => {
    const stop = new AbortController();
    const started = new Promise<void>((resolve) => (hangStarted = resolve));
    const call = runGrpc(spec(), { name: 'hang' }, ctx({ signal: stop.signal, timeoutMs: 10_000 }));
    await started;
    stop.abort();
    const err = await toolFailureOf(call);
    assert.equal(err.code, 'cancelled');
    const already = await toolFailureOf(runGrpc(spec(), { name: 'x' }, ctx({ signal: AbortSignal.abort() })));
    assert.equal(already.code, 'cancelled');
  });

  test('a response over maxBytes is refused', async () => {
    const err = await toolFailureOf(runGrpc(spec(), { name: 'big' }, ctx({ maxBytes: 10_000 })));
    assert.equal(err.code, 'handler_error');
    assert.match(err.message, /more than 10000 bytes/);
    const { response } = await runGrpc(spec(), { name: 'big' }, ctx({ maxBytes: 200_000 }));
    assert.equal((response as { big: string }).big.length, 100_000);
  });

  test('the proto must stay inside the plugin folder', async () => {
    const climbing = await toolFailureOf(runGrpc(spec({ proto: '../outside.proto' }), {}, ctx()));
    assert.equal(climbing.code, 'not_allowed');
    const linked = await toolFailureOf(runGrpc(spec({ proto: 'link.proto' }), {}, ctx()));
    assert.equal(linked.code, 'not_allowed');
    assert.match(linked.message, /outside the plugin folder/);
    const importing = await toolFailureOf(runGrpc(spec({ proto: 'importer.proto' }), {}, ctx()));
    assert.equal(importing.code, 'not_allowed');
    assert.match(importing.message, /imports '\.\.\/outside\.proto'/);
    const viaLink = await toolFailureOf(runGrpc(spec({ proto: 'link-importer.proto' }), {}, ctx()));
    assert.equal(viaLink.code, 'not_allowed');
    const absent = await toolFailureOf(runGrpc(spec({ proto: 'nope.proto' }), {}, ctx()));
    assert.equal(absent.code, 'handler_error');
  });

  test('streaming methods, unknown services and methods are refused', async () => {
    const streaming = await toolFailureOf(runGrpc(spec({ method: 'Watch' }), {}, ctx()));
    assert.equal(streaming.code, 'handler_error');
    assert.match(streaming.message, /test\.v1\.Slope\.Watch is a server streaming method/);
    assert.match((await toolFailureOf(runGrpc(spec({ service: 'test.v1.Nope' }), {}, ctx()))).message, /no service test\.v1\.Nope/);
    assert.match((await toolFailureOf(runGrpc(spec({ method: 'Nope' }), {}, ctx()))).message, /no method Nope/);
    assert.match((await toolFailureOf(runGrpc(spec({ service: 'test.v1.Inner' }), {}, ctx()))).message, /no service/);
  });

  test('loopback is refused unless its origin is allowed', async () => {
    const none = await toolFailureOf(runGrpc(spec(), { name: 'x' }, ctx({ egress: {} })));
    assert.equal(none.code, 'not_allowed');
    assert.match(none.message, /127\.0\.0\.1/);
    const otherPort = await toolFailureOf(
      runGrpc(spec(), { name: 'x' }, ctx({ egress: { allowedOrigins: new Set(['http://127.0.0.1:1']) } })),
    );
    assert.equal(otherPort.code, 'not_allowed');
    const localhost = await toolFailureOf(runGrpc(spec({ address: `localhost:${port}` }), { name: 'x' }, ctx({ egress: {} })));
    assert.equal(localhost.code, 'not_allowed');
    const { response } = await runGrpc(spec(), { name: 'ok' }, ctx());
    assert.equal((response as { greeting: string }).greeting, 'hello ok');
    // Allowed as https:// only: TLS is spoken, which this plaintext server cannot answer.
    const tls = await toolFailureOf(
      runGrpc(spec(), { name: 'x' }, ctx({ egress: { allowedOrigins: new Set([`https://127.0.0.1:${port}`]) } })),
    );
    assert.equal(tls.code, 'handler_error');
    assert.equal(tls.retryable, true);
    assert.match(tls.message, /unavailable/);
  });

  test('a name is resolved once and the checked address is used (no rebinding)', async () => {
    let lookups = 0;
    const lookup = async () => {
      lookups++;
      return lookups === 1 ? [{ address: '127.0.0.1', family: 4 }] : [{ address: '10.0.0.1', family: 4 }];
    };
    const { response } = await runGrpc(
      spec({ address: `plugin.test:${port}` }),
      { name: 'named' },
      ctx({ egress: { allowedOrigins: new Set([`http://plugin.test:${port}`]), lookup } }),
    );
    assert.equal((response as { greeting: string }).greeting, 'hello named');
    assert.equal(lookups, 1);
    const rebound = await toolFailureOf(runGrpc(spec({ address: `evil.test:${port}` }), { name: 'x' }, ctx({ egress: { lookup } })));
    assert.equal(rebound.code, 'not_allowed');
  });
});

describe('nested types and well-known types', () => {
  let echo: grpc.Server;
  let echoPort = 0;
  before(async () => {
    const def = protoLoader.loadSync(join(pluginDir, 'wkt.proto'), { keepCase: true, includeDirs: [pluginDir] });
    const pkg = grpc.loadPackageDefinition(def) as unknown as { geo: { v1: { Echo: grpc.ServiceClientConstructor } } };
    echo = new grpc.Server();
    echo.addService(pkg.geo.v1.Echo.service, {
      Ping: (_call: grpc.ServerUnaryCall<unknown, unknown>, cb: grpc.sendUnaryData<unknown>) => cb(null, {}),
      Echo: (call: grpc.ServerUnaryCall<unknown, unknown>, cb: grpc.sendUnaryData<unknown>) => cb(null, call.request),
    });
    echoPort = await new Promise<number>((resolve, reject) =>
      echo.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (err, p) => (err ? reject(err) : resolve(p))),
    );
  });
  after(() => echo.forceShutdown());

  const echoSpec = (method: string): GrpcSpec => ({ proto: 'wkt.proto', service: 'geo.v1.Echo', method, address: `127.0.0.1:${echoPort}` });
  const echoCtx = () => ctx({ egress: { allowedOrigins: new Set([`http://127.0.0.1:${echoPort}`]) } });

  test('a nested message and a oneof go through; unknown nested fields are refused', async () => {
    const { response } = await runGrpc(echoSpec('Echo'), { at: { lon: 6.5, lat: 45 }, label: 'summit' }, echoCtx());
    assert.deepEqual(response, { at: { lon: 6.5, lat: 45 }, label: 'summit', pick: 'label' });
    const err = await toolFailureOf(runGrpc(echoSpec('Echo'), { at: { lon: 1, alt: 2 } }, echoCtx()));
    assert.equal(err.code, 'invalid_params');
    assert.match(err.message, /'at\.alt'/);
  });

  test('google.protobuf.Empty from the bundled types', async () => {
    assert.deepEqual((await runGrpc(echoSpec('Ping'), {}, echoCtx())).response, {});
    assert.equal((await toolFailureOf(runGrpc(echoSpec('Ping'), { x: 1 }, echoCtx()))).code, 'invalid_params');
  });
});

describe('checkGrpcAddress', () => {
  test('a public address is reached over TLS at the checked IP, the name kept', async () => {
    const dest = await checkGrpcAddress('tiles.example.org:443', { lookup: async () => [{ address: '93.184.216.34', family: 4 }] });
    assert.deepEqual(dest, {
      host: 'tiles.example.org',
      port: 443,
      origin: 'https://tiles.example.org:443',
      target: 'ipv4:93.184.216.34:443',
      tls: true,
    });
    const v6 = await checkGrpcAddress('[2606:4700::1111]:8443', {});
    assert.equal(v6.target, 'ipv6:[2606:4700::1111]:8443');
    assert.equal(v6.tls, true);
  });

  test('plaintext only for an origin allowed as http://host:port', async () => {
    const dest = await checkGrpcAddress('127.0.0.1:9000', { allowedOrigins: new Set(['http://127.0.0.1:9000']) });
    assert.equal(dest.tls, false);
    assert.equal(dest.target, 'ipv4:127.0.0.1:9000');
    const tlsLocal = await checkGrpcAddress('127.0.0.1:9000', { allowedOrigins: new Set(['https://127.0.0.1:9000']) });
    assert.equal(tlsLocal.tls, true);
    const err = await toolFailureOf(checkGrpcAddress('192.168.1.5:9000', {}));
    assert.equal(err.code, 'not_allowed');
  });
});
