/**
 * The `http` executor against real loopback servers started here: placeholders encoded per
 * component and never able to move the request off its origin, the JSON body template, the
 * SSRF guard's refusals (loopback unless allowed, a non-public name, a redirect to another
 * origin), the size cap, the time limit, Stop, and answers outside 2xx.
 */
import assert from 'node:assert/strict';
import { startRecordingServer, type RecordingServer } from '../../net/testing/recordingServer.js';
import type { ServerResponse } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { ToolFailure } from '../../../src-shared/tools/toolResult.js';
import type { EgressOptions } from '../../net/ssrfGuard.js';
import { buildHttpRequest, PLUGIN_USER_AGENT, runHttp, type HttpContext, type HttpSpec } from './httpExecutor.js';

type TestServer = RecordingServer;
const startServer = startRecordingServer;

function send(res: ServerResponse, status: number, headers: Record<string, string>, body?: string | Buffer): void {
  res.writeHead(status, headers);
  res.end(body);
}

async function failure(p: Promise<unknown>, code: string, pattern: RegExp): Promise<ToolFailure> {
  let caught: ToolFailure | undefined;
  await assert.rejects(p, (err: unknown) => {
    assert.ok(err instanceof ToolFailure, `expected a ToolFailure, got ${String(err)}`);
    assert.equal(err.code, code, err.message);
    assert.match(err.message, pattern);
    caught = err;
    return true;
  });
  return caught!;
}

const NASTY = ['@evil.com', '//evil.com', '../', '%2e%2e', '?x#', 'http://evil.com/', '\\\\evil.com', 'a b&c=d/é'];

describe('buildHttpRequest: filling the URL', () => {
  const spec: HttpSpec = { method: 'GET', url: 'https://api.example.org/v1/items/{id}/{kind}.json?q={q}&limit=10' };
  const approved = 'https://api.example.org';

  test('each value is encoded as one path segment or one query value', () => {
    const req = buildHttpRequest(spec, { id: 'a/b c', kind: 'x?y#z', q: 'k=v&admin=1 é' }, approved);
    assert.equal(req.url.toString(), 'https://api.example.org/v1/items/a%2Fb%20c/x%3Fy%23z.json?q=k%3Dv%26admin%3D1%20%C3%A9&limit=10');
    assert.equal(req.origin, 'https://api.example.org:443');
    assert.deepEqual(req.headers, { Accept: req.headers.Accept, 'User-Agent': PLUGIN_USER_AGENT });
    assert.equal(req.body, undefined);
  });

  test('no value changes the origin or climbs the path', () => {
    for (const value of NASTY) {
      const req = buildHttpRequest(spec, { id: value, kind: value, q: value }, approved);
      assert.equal(req.url.origin, 'https://api.example.org', value);
      assert.equal(req.url.hash, '', value);
      const enc = encodeURIComponent(value);
      assert.equal(req.url.pathname, `/v1/items/${enc}/${enc}.json`, value);
      assert.equal(req.url.search, `?q=${enc}&limit=10`, value);
      assert.equal(req.url.searchParams.get('q'), value);
    }
  });

  test('a value that would be a dot segment is refused', () => {
    const dots: HttpSpec = { method: 'GET', url: 'https://api.example.org/v1/{a}/{b}' };
    for (const a of ['.', '..']) {
      assert.throws(
        () => buildHttpRequest(dots, { a, b: 'x' }, approved),
        (e: unknown) => e instanceof ToolFailure && e.code === 'invalid_params' && /climb/.test(e.message),
      );
    }
    const joined: HttpSpec = { method: 'GET', url: 'https://api.example.org/v1/{a}{b}' };
    assert.throws(() => buildHttpRequest(joined, { a: '.', b: '.' }, approved), /climb/);
    // Encoded dots in a value are data, not a dot segment; so are dots inside a longer segment.
    assert.equal(buildHttpRequest(dots, { a: '%2e%2e', b: '...' }, approved).url.pathname, '/v1/%252e%252e/...');
  });

  test('the declared origin must be the approved one', () => {
    assert.throws(
      () => buildHttpRequest(spec, { id: 1, kind: 'k', q: '' }, 'https://other.example.org'),
      (e: unknown) => e instanceof ToolFailure && e.code === 'not_allowed' && /approved/.test(e.message),
    );
    assert.throws(() => buildHttpRequest(spec, {}, 'http://api.example.org'), /approved/);
    assert.throws(() => buildHttpRequest(spec, {}, 'https://api.example.org:8443'), /approved/);
    assert.throws(
      () => buildHttpRequest(spec, {}, 'not a url'),
      (e: unknown) => e instanceof ToolFailure && e.code === 'not_allowed',
    );
    // The same origin, written differently.
    assert.equal(buildHttpRequest(spec, {}, 'HTTPS://API.example.org:443/').origin, 'https://api.example.org:443');
  });

  test('declarations the manifest refuses are refused here too', () => {
    const bad: HttpSpec[] = [
      { method: 'GET', url: 'https://{host}/x' },
      { method: 'GET', url: 'https://user:pw@api.example.org/x' },
      { method: 'GET', url: 'file:///etc/passwd' },
      { method: 'GET', url: 'ftp://api.example.org/x' },
      { method: 'GET', url: 'https://api.example.org/x#{frag}' },
      { method: 'GET', url: 'https://api.example.org/x', body: { a: 1 } },
      { method: 'GET', url: 'https://api.example.org/{x' },
    ];
    for (const s of bad) {
      assert.throws(
        () => buildHttpRequest(s, {}, 'https://api.example.org'),
        (e: unknown) => e instanceof ToolFailure && e.code === 'handler_error',
        s.url,
      );
    }
  });

  test('a lone surrogate is an invalid argument', () => {
    assert.throws(
      () => buildHttpRequest(spec, { id: '\ud800', kind: 'k', q: '' }, approved),
      (e: unknown) => e instanceof ToolFailure && e.code === 'invalid_params',
    );
  });
});

describe('runHttp against loopback servers', () => {
  let a: TestServer;
  let b: TestServer;
  before(async () => {
    b = await startServer((_req, res) => send(res, 200, { 'Content-Type': 'text/plain' }, 'b'));
    a = await startServer((req, res) => {
      const path = req.url.split('?')[0] ?? '';
      if (path === '/json' || path.startsWith('/json/'))
        send(res, 200, { 'Content-Type': 'application/json; charset=utf-8' }, JSON.stringify({ got: req.url }));
      else if (path === '/echo') send(res, 201, { 'Content-Type': 'application/geo+json' }, req.body);
      else if (path === '/to-b') send(res, 302, { Location: `${b.origin}/landed` });
      else if (path === '/hop') send(res, 302, { Location: '/json', 'Set-Cookie': 'session=abc; Path=/' });
      else if (path === '/big') send(res, 200, { 'Content-Type': 'text/plain' }, 'x'.repeat(10_000));
      else if (path === '/big-json') send(res, 200, { 'Content-Type': 'application/json' }, JSON.stringify({ a: 'y'.repeat(5000) }));
      else if (path === '/euro')
        send(res, 200, { 'Content-Type': 'text/plain; charset=utf-8' }, '€€€'); // 9 bytes
      else if (path === '/latin1')
        send(res, 200, { 'Content-Type': 'text/plain; charset=iso-8859-1' }, Buffer.from([0x63, 0x61, 0x66, 0xe9]));
      else if (path === '/stream') {
        // No Content-Length: the body arrives in chunks, more than the cap allows.
        res.writeHead(200, { 'Content-Type': 'text/plain' });
        let n = 0;
        const tick = setInterval(() => {
          if (res.destroyed || n++ >= 50) {
            clearInterval(tick);
            res.end();
          } else res.write('z'.repeat(1000));
        }, 5);
      } else if (path === '/slow') setTimeout(() => send(res, 200, {}, 'late'), 3000).unref();
      else if (path === '/slow-body') {
        res.writeHead(200, { 'Content-Type': 'text/plain' });
        res.write('start');
        setTimeout(() => res.end('end'), 3000).unref();
      } else if (path === '/missing') send(res, 404, { 'Content-Type': 'text/html' }, `<h1>Not   found</h1>\n${'detail '.repeat(200)}`);
      else if (path === '/busy') send(res, 503, { 'Retry-After': '30' }, 'try later');
      else if (path === '/empty-error') send(res, 500, {});
      else send(res, 200, { 'Content-Type': 'text/plain' }, `a:${req.url}`);
    });
  });
  after(async () => {
    await a.close();
    await b.close();
  });

  const reset = () => {
    a.received.length = 0;
    b.received.length = 0;
  };
  /** The person allowed loopback for server a (and b): as MAPWRIGHT_ALLOW_ORIGINS does in the app. */
  const ctx = (over: Partial<HttpContext> = {}): HttpContext => ({
    signal: new AbortController().signal,
    timeoutMs: 5000,
    maxBytes: 1 << 20,
    allowedOrigin: a.origin,
    egress: { allowedOrigins: new Set([a.origin, b.origin]) },
    ...over,
  });
  const get = (path: string): HttpSpec => ({ method: 'GET', url: `${a.origin}${path}` });

  test('GET: placeholders arrive encoded, JSON is parsed, only our headers are sent', async () => {
    reset();
    const result = await runHttp(get('/json/{id}?q={q}&n={n}'), { id: 'a b/c', q: 'x&y=z', n: 3 }, ctx());
    assert.equal(result.status, 200);
    assert.equal(result.json, true);
    assert.equal(result.truncated, false);
    assert.match(result.contentType, /^application\/json/);
    assert.deepEqual(result.body, { got: '/json/a%20b%2Fc?q=x%26y%3Dz&n=3' });
    assert.equal(result.url, `${a.origin}/json/a%20b%2Fc?q=x%26y%3Dz&n=3`);
    const got = a.received[0]!;
    assert.equal(got.method, 'GET');
    assert.equal(got.headers['user-agent'], 'Mapwright-plugin');
    assert.match(got.headers.accept ?? '', /application\/json/);
    assert.deepEqual(Object.keys(got.headers).sort(), ['accept', 'connection', 'host', 'user-agent']);
  });

  test('POST: the JSON body template is filled, values keep their types', async () => {
    reset();
    const spec: HttpSpec = {
      method: 'POST',
      url: `${a.origin}/echo?layer={name}`,
      body: {
        name: '{name}',
        label: 'Layer {name} at {zoom}',
        zoom: '{zoom}',
        bbox: '{bbox}',
        options: { flag: '{flag}', literal: '{{not a placeholder}}', list: ['{zoom}', '{missing}', 7] },
        note: '{missing}',
        fixed: true,
      },
    };
    const args = { name: 'roads "main"', zoom: 12, bbox: [1, 2, 3, 4], flag: false };
    const result = await runHttp(spec, args, ctx());
    assert.equal(result.status, 201);
    assert.equal(result.json, true);
    const expected = {
      name: 'roads "main"',
      label: 'Layer roads "main" at 12',
      zoom: 12,
      bbox: [1, 2, 3, 4],
      options: { flag: false, literal: '{not a placeholder}', list: [12, null, 7] },
      fixed: true,
    };
    assert.deepEqual(result.body, expected);
    const got = a.received[0]!;
    assert.equal(got.method, 'POST');
    assert.equal(got.url, '/echo?layer=roads%20%22main%22');
    assert.equal(got.headers['content-type'], 'application/json');
    assert.deepEqual(JSON.parse(got.body), expected);
    assert.deepEqual(Object.keys(got.headers).sort(), ['accept', 'connection', 'content-length', 'content-type', 'host', 'user-agent']);
  });

  test('POST without a body template sends an empty body and no Content-Type', async () => {
    reset();
    await runHttp({ method: 'POST', url: `${a.origin}/plain` }, {}, ctx());
    assert.equal(a.received[0]!.body, '');
    assert.equal(a.received[0]!.headers['content-type'], undefined);
  });

  test('origin-changing values stay data on the declared origin', async () => {
    reset();
    for (const value of NASTY) {
      const result = await runHttp(get('/v/{p}?q={p}'), { p: value }, ctx());
      const enc = encodeURIComponent(value);
      assert.equal(result.body, `a:/v/${enc}?q=${enc}`, value);
    }
    assert.equal(a.received.length, NASTY.length);
    assert.equal(b.received.length, 0);
    await failure(runHttp(get('/v/{p}'), { p: '..' }, ctx()), 'invalid_params', /climb/);
    assert.equal(a.received.length, NASTY.length);
  });

  test('a redirect to another origin is refused, even one the person allowed', async () => {
    reset();
    await failure(runHttp(get('/to-b'), {}, ctx()), 'not_allowed', /another origin/);
    assert.equal(b.received.length, 0);
  });

  test('a same-origin redirect is followed, and a cookie it sets is never sent back', async () => {
    reset();
    const result = await runHttp(get('/hop'), {}, ctx());
    assert.deepEqual(result.body, { got: '/json' });
    assert.equal(result.redirects, 1);
    assert.equal(a.received.length, 2);
    assert.equal(a.received[1]!.headers.cookie, undefined);
  });

  test('the size cap keeps the start and says truncated', async () => {
    reset();
    const big = await runHttp(get('/big'), {}, ctx({ maxBytes: 1000 }));
    assert.equal(big.truncated, true);
    assert.equal(big.body, 'x'.repeat(1000));
    const streamed = await runHttp(get('/stream'), {}, ctx({ maxBytes: 2500 }));
    assert.equal(streamed.truncated, true);
    assert.equal(streamed.body, 'z'.repeat(2500));
    const exact = await runHttp(get('/big'), {}, ctx({ maxBytes: 10_000 }));
    assert.equal(exact.truncated, false);
    assert.equal((exact.body as string).length, 10_000);
    // Cut JSON is not parsed: the text is returned.
    const json = await runHttp(get('/big-json'), {}, ctx({ maxBytes: 100 }));
    assert.equal(json.truncated, true);
    assert.equal(json.json, false);
    assert.equal(json.body, `{"a":"${'y'.repeat(94)}`);
    // A cut inside a character drops the partial character.
    const euro = await runHttp(get('/euro'), {}, ctx({ maxBytes: 5 }));
    assert.equal(euro.body, '€');
    assert.equal(euro.truncated, true);
  });

  test('text is decoded in the charset the answer names', async () => {
    const result = await runHttp(get('/latin1'), {}, ctx());
    assert.equal(result.body, 'café');
    assert.equal(result.json, false);
  });

  test('the time limit ends a request, waiting for headers or for the body', async () => {
    const t0 = Date.now();
    await failure(runHttp(get('/slow'), {}, ctx({ timeoutMs: 150 })), 'timeout', /within 150 ms/);
    await failure(runHttp(get('/slow-body'), {}, ctx({ timeoutMs: 150 })), 'timeout', /within 150 ms/);
    assert.ok(Date.now() - t0 < 2000);
  });

  test('the signal stops a request: before it is sent, or while it waits', async () => {
    reset();
    const stopped = new AbortController();
    stopped.abort();
    await failure(runHttp(get('/plain'), {}, ctx({ signal: stopped.signal })), 'cancelled', /before it was sent/);
    assert.equal(a.received.length, 0);

    for (const path of ['/slow', '/slow-body']) {
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 50);
      const t0 = Date.now();
      await failure(runHttp(get(path), {}, ctx({ signal: controller.signal })), 'cancelled', /stopped/);
      assert.ok(Date.now() - t0 < 2000);
    }
  });

  test('an answer outside 2xx is a handler_error with the status and a short excerpt', async () => {
    const missing = await failure(
      runHttp(get('/missing'), {}, ctx()),
      'handler_error',
      /answered 404 Not Found: <h1>Not found<\/h1> detail/,
    );
    assert.ok(missing.message.length < 500, missing.message);
    assert.equal(missing.retryable, false);
    const busy = await failure(runHttp(get('/busy'), {}, ctx()), 'handler_error', /answered 503 Service Unavailable: try later$/);
    assert.equal(busy.retryable, true);
    assert.match(busy.hint ?? '', /30/);
    await failure(runHttp(get('/empty-error'), {}, ctx()), 'handler_error', /answered 500 Internal Server Error$/);
  });

  test('the guard refuses loopback the person did not allow, before any connection', async () => {
    reset();
    for (const egress of [undefined, { allowedOrigins: new Set([b.origin]) }]) {
      await failure(runHttp(get('/plain'), {}, { ...ctx(), egress }), 'not_allowed', /loopback/);
    }
    assert.equal(a.received.length, 0);
  });

  test('the guard refuses names that resolve to private addresses, and private literals', async () => {
    const asked: string[] = [];
    const lookup: NonNullable<EgressOptions['lookup']> = async (hostname) => {
      asked.push(hostname);
      return [{ address: hostname === 'intranet.example.com' ? '10.0.0.5' : '169.254.169.254', family: 4 }];
    };
    const cases: [string, RegExp][] = [
      ['http://intranet.example.com/api/{x}', /10\.0\.0\.5/],
      ['http://metadata.example.com/latest/{x}', /169\.254\.169\.254/],
      ['http://169.254.169.254/latest/{x}', /169\.254\.169\.254/],
      ['http://[::1]:9/{x}', /::1/],
    ];
    for (const [url, pattern] of cases) {
      const origin = new URL(url.replace('{x}', '')).origin;
      await failure(
        runHttp({ method: 'GET', url }, { x: 'meta-data' }, { ...ctx(), allowedOrigin: origin, egress: { lookup } }),
        'not_allowed',
        pattern,
      );
    }
    assert.deepEqual(asked, ['intranet.example.com', 'metadata.example.com']);
  });

  test('an unreachable server is a handler_error', async () => {
    const gone = await startServer(() => {});
    const origin = gone.origin;
    await gone.close();
    await failure(
      runHttp(
        { method: 'GET', url: `${origin}/x` },
        {},
        { ...ctx(), allowedOrigin: origin, egress: { allowedOrigins: new Set([origin]) } },
      ),
      'handler_error',
      /could not be reached/,
    );
  });
});
