import http, { type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expectError, expectSuccess, TestApp } from '../../support/test-app.js';

// Issue 13, finding 2: request bodies are bounded, and a multipart body is read only after
// authentication; what goes past a bound is refused at once, not after reading the rest.

let t: TestApp;
let port: number;
beforeAll(async () => {
  t = await TestApp.start();
  const server = t.app.getHttpServer() as http.Server;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => t.close());

const MiB = 1024 * 1024;
const BOUNDARY = 'svc-test-boundary';
const MULTIPART = `multipart/form-data; boundary=${BOUNDARY}`;
const field = (name: string, value: string | Buffer) =>
  Buffer.concat([Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n`), Buffer.from(value), Buffer.from('\r\n')]);
const fileHead = (name: string, filename: string) =>
  Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`);
const closing = Buffer.from(`--${BOUNDARY}--\r\n`);
const multipart = (...parts: Buffer[]) => Buffer.concat([...parts, closing]);
const basic = (a: { email: string; apiKey: string }) => `Basic ${Buffer.from(`${a.email}:${a.apiKey}`).toString('base64')}`;

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: unknown;
}

/**
 * Sends a request's head and the given part of its body, and never the rest: resolves with the
 * server's answer, which therefore cannot have waited for the whole body.
 */
function answerBeforeEnd(path: string, headers: Record<string, string>, sent: Buffer[]): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method: 'POST', path, headers });
    let answered = false;
    req.on('response', (res) => {
      const parts: Buffer[] = [];
      res.on('data', (c: Buffer) => parts.push(c));
      res.on('end', () => {
        answered = true;
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: JSON.parse(Buffer.concat(parts).toString()) });
        req.destroy();
      });
    });
    // The server may close the connection while this side still has body to send.
    req.on('error', (err) => {
      if (!answered) setImmediate(() => (answered ? undefined : reject(err)));
    });
    for (const chunk of sent) req.write(chunk);
  });
}

const expectEnvelope = (a: Answer, status: number, msg: string, code = 'BAD_REQUEST') =>
  expect({ status: a.status, body: a.body }).toEqual({ status, body: { result: 'error', msg, code } });

describe('multipart bodies', () => {
  it('accepts 1,000 fields and refuses 1,001 with 413', async () => {
    const fields = (n: number) => Array.from({ length: n }, (_, i) => field(`p${i}`, 'x'));
    const ok = await t.http.post('/api/v1/register').auth(t.owner.email, t.owner.apiKey).set('Content-Type', MULTIPART).send(multipart(...fields(1000)));
    expectSuccess(ok);
    expect(ok.body.ignored_parameters_unsupported).toHaveLength(1000);
    const tooMany = await t.http.post('/api/v1/register').auth(t.owner.email, t.owner.apiKey).set('Content-Type', MULTIPART).send(multipart(...fields(1001)));
    expectError(tooMany, 413, 'Too many parameters');
  });

  it('refuses a field larger than the form body limit with 413', async () => {
    const big = await t.http
      .post('/api/v1/register')
      .auth(t.owner.email, t.owner.apiKey)
      .set('Content-Type', MULTIPART)
      .send(multipart(field('client_gravatar', 'false'), field('padding', Buffer.alloc(5 * MiB + 1, 'a'))));
    expectError(big, 413, 'Request entity too large');
    // Below the limit the same field is just an ignored parameter.
    const fine = await t.http
      .post('/api/v1/register')
      .auth(t.owner.email, t.owner.apiKey)
      .set('Content-Type', MULTIPART)
      .send(multipart(field('padding', Buffer.alloc(MiB, 'a'))));
    expectSuccess(fine, { ignored_parameters_unsupported: ['padding'] });
  });

  it('refuses a file on a route that takes none, without reading it', { timeout: 15_000 }, async () => {
    const newest = async () =>
      (await t.get('messages', { query: { anchor: 'newest', num_before: 1, num_after: 0, narrow: [] } })).body.messages.map((m: { id: number }) => m.id);
    const before = await newest();
    const answer = await answerBeforeEnd(
      '/api/v1/messages',
      { 'Content-Type': MULTIPART, Authorization: basic(t.owner) },
      [field('type', 'direct'), field('to', `[${t.owner.id}]`), field('content', 'hi'), fileHead('file', 'big.bin'), Buffer.alloc(64 * 1024)],
    );
    expectEnvelope(answer, 400, 'Malformed payload: files can be uploaded only to the upload endpoints');
    expect(answer.headers.connection).toBe('close');
    expect(await newest()).toEqual(before);
  });

  it('answers an unauthenticated multipart body with 401 without reading it', { timeout: 15_000 }, async () => {
    const answer = await answerBeforeEnd('/api/v1/messages', { 'Content-Type': MULTIPART, 'Content-Length': String(40 * MiB) }, [
      field('type', 'direct'),
      field('padding', Buffer.alloc(64 * 1024, 'a')),
    ]);
    expectEnvelope(answer, 401, 'Not logged in: API authentication or user session required', 'UNAUTHORIZED');
    // The connection is closed rather than drained: the rest of the 40 MB is never read.
    expect(answer.headers.connection).toBe('close');
  });

  it('refuses a declared body over the limit before reading it, on a public route too', { timeout: 15_000 }, async () => {
    const answer = await answerBeforeEnd('/api/v1/fetch_api_key', { 'Content-Type': MULTIPART, 'Content-Length': String(40 * MiB) }, [
      field('username', 'owner@example.com'),
    ]);
    expectEnvelope(answer, 413, 'Request entity too large');
    expect(answer.headers.connection).toBe('close');
  });

  it('stops reading a streamed body at the limit, on a public route too', { timeout: 15_000 }, async () => {
    // No Content-Length: sent chunked, 6 MiB of one field, and never finished.
    const chunks = [field('username', 'owner@example.com'), Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="password"\r\n\r\n`)];
    for (let i = 0; i < 96; i++) chunks.push(Buffer.alloc(64 * 1024, 'a'));
    const answer = await answerBeforeEnd('/api/v1/fetch_api_key', { 'Content-Type': MULTIPART }, chunks);
    expectEnvelope(answer, 413, 'Request entity too large');
    expect(answer.headers.connection).toBe('close');
  });
});

describe('form and JSON bodies', () => {
  it('refuses more than 1,000 form parameters with 413', async () => {
    const params = (n: number) => Array.from({ length: n }, (_, i) => `p${i}=x`).join('&');
    expectSuccess(await t.http.post('/api/v1/register').auth(t.owner.email, t.owner.apiKey).type('form').send(params(1000)));
    const tooMany = await t.http.post('/api/v1/register').auth(t.owner.email, t.owner.apiKey).type('form').send(params(1001));
    expectError(tooMany, 413, 'Too many parameters');
  });

  it('refuses a declared JSON body over the limit before reading it', { timeout: 15_000 }, async () => {
    const answer = await answerBeforeEnd('/api/v1/fetch_api_key', { 'Content-Type': 'application/json', 'Content-Length': String(40 * MiB) }, [
      Buffer.from('{"username": "'),
    ]);
    expectEnvelope(answer, 413, 'Request entity too large');
    expect(answer.headers.connection).toBe('close');
  });

  it('refuses a complete form body over the limit with 413', async () => {
    const res = await t.http.post('/api/v1/register').auth(t.owner.email, t.owner.apiKey).type('form').send(`padding=${'a'.repeat(5 * MiB + 1)}`);
    expectError(res, 413, 'Request entity too large');
  });
});
