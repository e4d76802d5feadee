/**
 * The SSRF guard. Every "public" name here resolves through an injected lookup and is only
 * checked, never connected to; the only sockets opened are to test servers on 127.0.0.1.
 */
import assert from 'node:assert/strict';
import { startRecordingServer, type RecordingServer } from './testing/recordingServer.js';
import { after, before, describe, test } from 'node:test';
import { guardedFetch, guardedFetchStream } from './guardedFetch.js';
import { isNonPublicAddress, parseIpLiteral } from './ipAddress.js';
import { checkDestination, EgressFailed, EgressRefused, originOf, type EgressOptions } from './ssrfGuard.js';

const PUBLIC = '93.184.216.34';

/** A fake DNS: names map to address lists; anything else is NXDOMAIN. Records what was asked. */
function fakeDns(table: Record<string, string[]>) {
  const asked: string[] = [];
  const lookup: NonNullable<EgressOptions['lookup']> = async (hostname) => {
    asked.push(hostname);
    const found = table[hostname.toLowerCase()];
    if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return found.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  return { lookup, asked };
}

const dns = fakeDns({
  'example.com': [PUBLIC],
  'v6.example.com': ['2606:2800:220:1:248:1893:25c8:1946'],
  localhost: ['127.0.0.1', '::1'],
  'rebind.example.com': ['10.0.0.5'],
  'metadata.example.com': ['169.254.169.254'],
  'mixed.example.com': [PUBLIC, '192.168.0.10'],
  'mixed6.example.com': [PUBLIC, 'fd00::1'],
  'mapped.example.com': ['::ffff:127.0.0.1'],
  'bogus.example.com': ['not-an-address'],
  'empty.example.com': [],
});

async function refused(url: string, opts: EgressOptions = {}): Promise<EgressRefused> {
  const error = await checkDestination(url, { lookup: dns.lookup, ...opts }).then(
    () => null,
    (e: unknown) => e,
  );
  assert.ok(error instanceof EgressRefused, `${url} should be refused, got ${String(error)}`);
  assert.equal(error.code, 'egress_refused');
  assert.ok(!error.message.includes('\n    at '), 'no stack in the message');
  return error;
}

describe('parseIpLiteral', () => {
  const loopbackSpellings = [
    '127.0.0.1',
    '127.1',
    '127.0.1',
    '2130706433',
    '0x7f000001',
    '0177.0.0.1',
    '0x7f.0.0.1',
    '0x7f.1',
    '017700000001',
    '127.0.0.1.',
  ];
  for (const spelling of loopbackSpellings) {
    test(`${spelling} is 127.0.0.1`, () => {
      assert.deepEqual(parseIpLiteral(spelling), { family: 4, address: '127.0.0.1' });
    });
  }

  test('IPv6 spellings are canonicalised', () => {
    assert.deepEqual(parseIpLiteral('[::1]'), { family: 6, address: '::1' });
    assert.deepEqual(parseIpLiteral('0:0:0:0:0:0:0:1'), { family: 6, address: '::1' });
    assert.deepEqual(parseIpLiteral('[::ffff:127.0.0.1]'), { family: 6, address: '::ffff:7f00:1' });
    assert.deepEqual(parseIpLiteral('::FFFF:7F00:1'), { family: 6, address: '::ffff:7f00:1' });
    assert.deepEqual(parseIpLiteral('fe80::1%eth0'), { family: 6, address: 'fe80::1' });
    assert.deepEqual(parseIpLiteral('2001:db8:0:0:1:0:0:1'), { family: 6, address: '2001:db8::1:0:0:1' });
    assert.deepEqual(parseIpLiteral('1:0:2:3:4:5:6:7'), { family: 6, address: '1:0:2:3:4:5:6:7' });
  });

  test('what is not an IP literal', () => {
    for (const host of [
      'example.com',
      'localhost',
      '',
      '1.2.3.4.5',
      '256.0.0.1',
      '1.16777216',
      '0x1g',
      '08.0.0.1',
      '1:2:3:4:5:6:7:8:9',
      '1::2::3',
      ':::',
      '1.2.3.4::',
      '::ffff:01.2.3.4',
      '12345::',
    ]) {
      assert.equal(parseIpLiteral(host), null, host);
    }
  });
});

describe('isNonPublicAddress', () => {
  const nonPublic = [
    '127.0.0.1',
    '127.255.255.254',
    '0.0.0.0',
    '0.1.2.3',
    '10.0.0.1',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '100.64.0.1',
    '100.127.255.255',
    '169.254.169.254',
    '224.0.0.1',
    '239.255.255.250',
    '240.0.0.1',
    '255.255.255.255',
    '192.0.2.1',
    '198.18.0.1',
    '203.0.113.9',
    '::',
    '::1',
    '[::1]',
    'fe80::1',
    'fc00::1',
    'fd12:3456::1',
    'ff02::1',
    'fec0::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:10.0.0.1',
    '::ffff:169.254.169.254',
    '::127.0.0.1',
    '::ffff:0:127.0.0.1',
    '64:ff9b::7f00:1',
    '64:ff9b:1::1',
    '2002:7f00:1::',
    '2002:c0a8:101::1',
    '2001:0:4136:e378:8000:63bf:80ff:fffe',
    '2001:db8::1',
    '100::1',
    '4000::1',
    '2130706433',
    '0x7f.1',
    'not-an-address',
    '',
  ];
  for (const address of nonPublic) test(`${address || '(empty)'} is not public`, () => assert.equal(isNonPublicAddress(address), true));

  const publicOnes = [
    '8.8.8.8',
    PUBLIC,
    '1.1.1.1',
    '172.32.0.1',
    '100.128.0.1',
    '2606:4700::1111',
    '::ffff:8.8.8.8',
    '64:ff9b::808:808',
    '2002:808:808::1',
  ];
  for (const address of publicOnes) test(`${address} is public`, () => assert.equal(isNonPublicAddress(address), false));
});

describe('originOf', () => {
  test('default ports made explicit, case folded', () => {
    assert.equal(originOf('HTTPS://Example.COM/v1?x'), 'https://example.com:443');
    assert.equal(originOf('https://example.com:443/'), 'https://example.com:443');
    assert.equal(originOf('http://example.com'), 'http://example.com:80');
    assert.equal(originOf(new URL('http://127.0.0.1:11434/v1')), 'http://127.0.0.1:11434');
    assert.equal(originOf('http://[::1]:8080/'), 'http://[::1]:8080');
    assert.equal(originOf('http://0x7f.1/'), 'http://127.0.0.1:80');
  });
});

describe('checkDestination', () => {
  const forbidden = [
    'http://127.0.0.1/',
    'http://127.1/',
    'http://2130706433/',
    'http://0x7f000001/',
    'http://0177.0.0.1/',
    'http://0x7f.0.0.1/',
    'http://%31%32%37.0.0.1/',
    'http://[::1]/',
    'http://[::ffff:127.0.0.1]/',
    'http://[::ffff:7f00:1]/',
    'http://0.0.0.0/',
    'http://0/',
    'http://169.254.169.254/latest/meta-data/',
    'http://10.0.0.1/',
    'http://172.16.0.1/',
    'http://192.168.1.1/',
    'http://100.64.0.1/',
    'http://224.0.0.1/',
    'http://[fe80::1]/',
    'http://[fc00::1]/',
    'https://127.0.0.1:8443/',
    'http://localhost:11434/',
    'http://foo.localhost/',
  ];
  for (const url of forbidden) {
    test(`refuses ${url}`, async () => {
      const error = await refused(url);
      assert.match(error.message, /^Refused http/);
    });
  }

  test('the message names the rule and the host', async () => {
    assert.match((await refused('http://0x7f.1/')).message, /127\.0\.0\.1.*loopback/);
    assert.match((await refused('http://169.254.169.254/')).message, /link-local/);
    assert.match((await refused('http://[::ffff:10.0.0.1]/')).message, /private address \(10\.0\.0\.0\/8\).*IPv4-mapped/);
  });

  test('localhost resolving to 127.0.0.1 is refused', async () => {
    // The name rule answers first; a resolver returning loopback for another name is caught by the address rule.
    await refused('http://localhost/');
    const loopbackDns = fakeDns({ 'my-machine': ['127.0.0.1'] });
    const error = await refused('http://my-machine:8080/', { lookup: loopbackDns.lookup });
    assert.match(error.message, /my-machine resolves to 127\.0\.0\.1, a loopback address/);
  });

  test('a public name resolving to a private address (DNS rebinding) is refused', async () => {
    assert.match(
      (await refused('https://rebind.example.com/x')).message,
      /rebind\.example\.com resolves to 10\.0\.0\.5, a private address/,
    );
    assert.match((await refused('http://metadata.example.com/')).message, /169\.254\.169\.254/);
    assert.match((await refused('http://mapped.example.com/')).message, /loopback/);
  });

  test('a name resolving to one public and one private address is refused', async () => {
    assert.match((await refused('https://mixed.example.com/')).message, /192\.168\.0\.10/);
    assert.match((await refused('https://mixed6.example.com/')).message, /fd00::1/);
  });

  test('a resolver answering garbage is refused, no answer fails', async () => {
    await refused('http://bogus.example.com/');
    await assert.rejects(checkDestination('http://empty.example.com/', { lookup: dns.lookup }), EgressFailed);
    await assert.rejects(
      checkDestination('http://nowhere.example.com/', { lookup: dns.lookup }),
      (e: unknown) => e instanceof EgressFailed && /ENOTFOUND/.test(e.message),
    );
  });

  test('non-http schemes are refused', async () => {
    for (const url of [
      'file:///etc/passwd',
      'ftp://example.com/',
      'gopher://example.com:70/',
      'data:text/plain,hi',
      'ws://example.com/',
      'javascript:alert(1)',
    ]) {
      const error = await refused(url);
      assert.match(error.message, /only http:\/\/ and https:\/\//);
    }
    await refused('not a url');
  });

  test('public names and literals pass, pinned to the checked address', async () => {
    const checked = await checkDestination('https://Example.com/path?q=1', { lookup: dns.lookup });
    assert.deepEqual(
      { origin: checked.origin, address: checked.address, family: checked.family },
      { origin: 'https://example.com:443', address: PUBLIC, family: 4 },
    );
    assert.equal(checked.url.toString(), 'https://example.com/path?q=1');
    const v6 = await checkDestination('http://v6.example.com/', { lookup: dns.lookup });
    assert.equal(v6.family, 6);
    const literal = await checkDestination(`http://${PUBLIC}:8080/`, { lookup: async () => assert.fail('no lookup for a literal') });
    assert.equal(literal.address, PUBLIC);
  });

  test('an allowed origin passes even when it is not public, and only that origin', async () => {
    const allowedOrigins = new Set(['http://127.0.0.1:11434']);
    const checked = await checkDestination('http://127.0.0.1:11434/v1/chat/completions', { allowedOrigins, lookup: dns.lookup });
    assert.equal(checked.address, '127.0.0.1');
    assert.equal(checked.allowed, true);
    await refused('http://127.0.0.1:11435/', { allowedOrigins });
    await refused('https://127.0.0.1:11434/', { allowedOrigins });
    // Entries are normalised: a trailing slash or an implicit default port still match.
    await checkDestination('http://localhost/', { allowedOrigins: new Set(['http://localhost/']), lookup: dns.lookup });
    await checkDestination('http://rebind.example.com:80/', { allowedOrigins: new Set(['http://rebind.example.com']), lookup: dns.lookup });
  });
});

/** Loopback test servers (each records what it received), answering by path. */
interface TestServer extends RecordingServer {
  url: string;
}

async function startServer(
  handle: (path: string, reply: (status: number, headers: Record<string, string>, body?: string | Buffer) => void) => void,
): Promise<TestServer> {
  const server = await startRecordingServer((req, res) =>
    handle(req.url || '/', (status, headers, body) => {
      res.writeHead(status, headers);
      res.end(body);
    }),
  );
  return { ...server, url: server.origin };
}

describe('guardedFetch against loopback servers', () => {
  let a: TestServer;
  let b: TestServer;
  before(async () => {
    b = await startServer((path, reply) => {
      if (path === '/big') reply(200, { 'Content-Type': 'application/octet-stream' }, Buffer.alloc(4096, 1));
      else reply(200, { 'Content-Type': 'text/plain' }, `b:${path}`);
    });
    a = await startServer((path, reply) => {
      const hop = /^\/hop\/(\d+)$/.exec(path);
      if (hop) {
        const n = Number(hop[1]);
        reply(302, { Location: n > 0 ? `/hop/${n - 1}` : '/done' });
      } else if (path === '/to-b') reply(307, { Location: `${b.url}/landed` });
      else if (path === '/to-metadata') reply(302, { Location: 'http://169.254.169.254/latest/meta-data/' });
      else if (path === '/to-file') reply(302, { Location: 'file:///etc/passwd' });
      else if (path === '/see-other') reply(303, { Location: '/done' });
      else if (path === '/stream') reply(200, { 'Content-Type': 'text/plain' }, 'x'.repeat(3000));
      else if (path === '/slow') setTimeout(() => reply(200, {}, 'late'), 2000);
      else reply(200, { 'Content-Type': 'text/plain', 'X-Seen': path }, `a:${path}`);
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
  const onlyA = () => ({ allowedOrigins: new Set([a.origin]) });
  const both = () => ({ allowedOrigins: new Set([a.origin, b.origin]) });
  const KEYS = { Authorization: 'Bearer sk-secret', 'x-api-key': 'sk-secret', Cookie: 'session=1', 'api-key': 'k', 'X-Trace': 'keep-me' };

  test('loopback without permission is refused before any connection', async () => {
    reset();
    await assert.rejects(guardedFetch(`${a.url}/plain`), EgressRefused);
    assert.equal(a.received.length, 0);
  });

  test('an allowed origin is fetched, body and headers returned', async () => {
    reset();
    const response = await guardedFetch(`${a.url}/plain`, { headers: { Authorization: 'Bearer sk-secret' } }, onlyA());
    assert.equal(response.status, 200);
    assert.equal(response.body.toString(), 'a:/plain');
    assert.equal(response.headers.get('x-seen'), '/plain');
    assert.equal(response.address, '127.0.0.1');
    assert.equal(a.received[0]!.headers.authorization, 'Bearer sk-secret');
  });

  test('same-origin redirects are followed with the key, up to the cap', async () => {
    reset();
    const response = await guardedFetch(`${a.url}/hop/2`, { headers: KEYS }, onlyA());
    assert.equal(response.body.toString(), 'a:/done');
    assert.equal(response.redirects, 3);
    assert.equal(response.url, `${a.url}/done`);
    assert.ok(a.received.every((r) => r.headers.authorization === 'Bearer sk-secret'));
  });

  test('one redirect past the cap is refused', async () => {
    reset();
    await assert.rejects(
      guardedFetch(`${a.url}/hop/3`, {}, onlyA()),
      (e: unknown) => e instanceof EgressRefused && /more than 3 times/.test(e.message),
    );
    assert.equal(a.received.length, 4);
    await assert.rejects(guardedFetch(`${a.url}/hop/0`, {}, { ...onlyA(), maxRedirects: 0 }), /more than 0 times/);
  });

  test('a cross-origin redirect is refused unless allowed, and B never hears of it', async () => {
    reset();
    await assert.rejects(
      guardedFetch(`${a.url}/to-b`, { headers: KEYS }, onlyA()),
      (e: unknown) => e instanceof EgressRefused && e.message.includes(`another origin (${b.origin})`),
    );
    assert.equal(b.received.length, 0);
  });

  test('a permitted cross-origin redirect drops the key headers, keeps the rest', async () => {
    for (const opts of [
      both(),
      { ...onlyA(), allowCrossOrigin: true },
      { ...onlyA(), allowCrossOrigin: (from: string, to: string) => from === a.origin && to === b.origin },
    ]) {
      reset();
      // allowCrossOrigin alone does not lift the address rule: b (loopback) must be allowed too.
      const response = await guardedFetch(
        `${a.url}/to-b`,
        { method: 'POST', headers: KEYS, body: '{"x":1}' },
        { ...opts, allowedOrigins: new Set([...(opts.allowedOrigins ?? []), b.origin]) },
      );
      assert.equal(response.body.toString(), 'b:/landed');
      const got = b.received[0]!;
      for (const name of ['authorization', 'x-api-key', 'cookie', 'api-key']) assert.equal(got.headers[name], undefined, name);
      assert.equal(got.headers['x-trace'], 'keep-me');
      // 307 keeps the method and body.
      assert.equal(got.method, 'POST');
      assert.equal(got.body, '{"x":1}');
      assert.equal(a.received[0]!.headers['x-api-key'], 'sk-secret');
    }
  });

  test('allowCrossOrigin does not open non-public destinations', async () => {
    reset();
    await assert.rejects(
      guardedFetch(`${a.url}/to-b`, {}, { ...onlyA(), allowCrossOrigin: true }),
      (e: unknown) => e instanceof EgressRefused && /loopback/.test(e.message),
    );
    await assert.rejects(
      guardedFetch(`${a.url}/to-metadata`, {}, { ...onlyA(), allowCrossOrigin: true }),
      (e: unknown) => e instanceof EgressRefused && /169\.254\.169\.254/.test(e.message),
    );
    await assert.rejects(
      guardedFetch(`${a.url}/to-file`, {}, { ...onlyA(), allowCrossOrigin: true }),
      (e: unknown) => e instanceof EgressRefused && /file:/.test(e.message),
    );
    assert.equal(b.received.length, 0);
  });

  test('custom strip list', async () => {
    reset();
    await guardedFetch(`${a.url}/to-b`, { headers: KEYS }, { ...both(), stripOnCrossOrigin: ['x-trace'] });
    assert.equal(b.received[0]!.headers['x-trace'], undefined);
    assert.equal(b.received[0]!.headers['x-api-key'], 'sk-secret');
  });

  test('303 turns a POST into a GET without body', async () => {
    reset();
    const response = await guardedFetch(
      `${a.url}/see-other`,
      { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' },
      onlyA(),
    );
    assert.equal(response.body.toString(), 'a:/done');
    assert.equal(a.received[1]!.method, 'GET');
    assert.equal(a.received[1]!.headers['content-type'], undefined);
  });

  test('the size cap refuses large bodies, declared or streamed', async () => {
    reset();
    await assert.rejects(
      guardedFetch(`${b.url}/big`, {}, { ...both(), maxBytes: 1000 }),
      (e: unknown) => e instanceof EgressRefused && /larger than 1000 bytes/.test(e.message),
    );
    const stream = await guardedFetchStream(`${a.url}/stream`, {}, { ...onlyA(), maxBytes: 4096 });
    let total = 0;
    for await (const chunk of stream.body) total += (chunk as Buffer).length;
    assert.equal(total, 3000);
    const exact = await guardedFetch(`${b.url}/big`, {}, { ...both(), maxBytes: 4096 });
    assert.equal(exact.body.length, 4096);
  });

  test('the time cap and the caller signal end the request', async () => {
    await assert.rejects(
      guardedFetch(`${a.url}/slow`, {}, { ...onlyA(), timeoutMs: 100 }),
      (e: unknown) => e instanceof EgressFailed && /within 100 ms/.test(e.message),
    );
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    await assert.rejects(
      guardedFetch(`${a.url}/slow`, {}, { ...onlyA(), signal: controller.signal }),
      (e: unknown) => (e as Error).name === 'AbortError',
    );
  });

  test('the connection is pinned to the checked address', async () => {
    reset();
    // A name whose (fake) DNS says 127.0.0.1: the request goes there, with the name as Host.
    const port = new URL(a.url).port;
    const local = fakeDns({ 'model.test': ['127.0.0.1'] });
    const response = await guardedFetch(
      `http://model.test:${port}/pinned`,
      {},
      { allowedOrigins: new Set([`http://model.test:${port}`]), lookup: local.lookup },
    );
    assert.equal(response.body.toString(), 'a:/pinned');
    assert.equal(a.received[0]!.headers.host, `model.test:${port}`);
    assert.deepEqual(local.asked, ['model.test']);
  });
});
