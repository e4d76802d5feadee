import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { HttpModelError } from './modelClient.js';
import { refusalOf, type SentFeatures } from './refusals.js';
import { retryAfterMsOf, retryDelayMs } from './retryPolicy.js';

const ALL: SentFeatures = { tools: true, stream: true, streamUsage: true, reasoningReplay: false };
const err = (status: number, body: unknown) => new HttpModelError('m', status, typeof body === 'string' ? body : JSON.stringify(body));

describe('refusal or outage', () => {
  const tools = [
    { error: { message: 'registry.ollama.ai/library/gemma3:4b does not support tools', type: 'api_error', param: null, code: null } },
    {
      error: {
        message: '"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set',
        type: 'BadRequestError',
        param: null,
        code: 400,
      },
    },
    { detail: [{ type: 'extra_forbidden', loc: ['body', 'tools'], msg: 'Extra inputs are not permitted' }] },
    { error: { message: 'Unrecognized request argument supplied: tools', type: 'invalid_request_error', param: null, code: null } },
    { error: { message: 'This model does not support function calling', param: 'tools', code: 'unsupported_parameter' } },
    'Tool calling is not supported by this server',
  ];
  for (const body of tools) {
    test(`tools refused: ${JSON.stringify(body).slice(0, 60)}`, () => assert.equal(refusalOf(err(400, body), ALL), 'tools'));
  }

  test('stream refused: param stream, and the plain wording', () => {
    assert.equal(
      refusalOf(
        err(400, { error: { message: "Unsupported value: 'stream' does not support true with this model.", param: 'stream' } }),
        ALL,
      ),
      'stream',
    );
    assert.equal(refusalOf(err(400, 'Streaming is not supported for this model'), ALL), 'stream');
    assert.equal(refusalOf(err(422, { detail: [{ loc: ['body', 'stream'], msg: 'extra' }] }), ALL), 'stream');
  });

  test('stream_options refused is not a stream refusal', () => {
    assert.equal(
      refusalOf(err(400, { error: { message: 'Unrecognized request argument supplied: stream_options' } }), ALL),
      'stream-usage',
    );
  });

  test('outage statuses are never refusals, whatever the body says', () => {
    for (const status of [401, 403, 404, 408, 429, 500, 502, 503, 504, 529]) {
      assert.equal(
        refusalOf(err(status, { error: { message: 'model does not support tools', param: 'tools' } }), ALL),
        null,
        String(status),
      );
    }
  });

  test('a 400 about something else, or about a feature not sent, refuses nothing', () => {
    assert.equal(refusalOf(err(400, { error: { message: "Unsupported parameter: 'max_tokens'", param: 'max_tokens' } }), ALL), null);
    assert.equal(refusalOf(err(400, 'model does not support tools'), { ...ALL, tools: false }), null);
    assert.equal(refusalOf(err(400, 'Bad Request'), ALL), null);
  });

  test('reasoning_content wanted, and refused once sent', () => {
    assert.equal(refusalOf(err(400, 'Missing `reasoning_content` field in the assistant message'), ALL), 'reasoning-replay');
    assert.equal(
      refusalOf(err(400, 'reasoning_content is not allowed in input messages'), { ...ALL, reasoningReplay: true }),
      'reasoning-replay-refused',
    );
  });
});

describe('retry timing', () => {
  const headers = (h: Record<string, string>) => new Headers(h);
  test('Retry-After in seconds, as an HTTP date, and retry-after-ms', () => {
    assert.equal(retryAfterMsOf(headers({ 'retry-after': '3' })), 3000);
    assert.equal(retryAfterMsOf(headers({ 'retry-after': '0.5' })), 500);
    assert.equal(retryAfterMsOf(headers({ 'retry-after-ms': '250', 'retry-after': '9' })), 250);
    const now = Date.parse('2025-01-01T00:00:00Z');
    assert.equal(retryAfterMsOf(headers({ 'retry-after': 'Wed, 01 Jan 2025 00:00:07 GMT' }), now), 7000);
    assert.equal(retryAfterMsOf(headers({ 'retry-after': 'soon' })), null);
    assert.equal(retryAfterMsOf(headers({})), null);
  });

  test('bounded: no delay past maxRetries, none for non-outages', () => {
    const policy = { maxRetries: 2, baseDelayMs: 100, maxDelayMs: 1000 };
    const outage = new HttpModelError('x', 503, '');
    assert.equal(
      retryDelayMs(outage, 1, policy, () => 0),
      100,
    );
    assert.equal(
      retryDelayMs(outage, 2, policy, () => 0),
      200,
    );
    assert.equal(
      retryDelayMs(outage, 3, policy, () => 0),
      null,
    );
    assert.equal(retryDelayMs(new HttpModelError('x', 401, ''), 1, policy), null);
    assert.equal(retryDelayMs(new HttpModelError('x', 429, '', 900), 1, policy), 900);
    assert.equal(retryDelayMs(new HttpModelError('x', 429, '', 5000), 1, policy), null);
  });
});
