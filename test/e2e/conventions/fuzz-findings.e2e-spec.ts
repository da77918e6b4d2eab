import pg from 'pg';
import { expectError, TestApp } from '../../support/test-app.js';

/**
 * Regression tests for what the API fuzzer (fuzz.e2e-spec.ts) found: each one a minimal
 * reproduction of a 5xx, a non-envelope answer or a write on a 4xx.
 */
let t: TestApp;
beforeAll(async () => {
  t = await TestApp.start();
});
afterAll(() => t.close());

async function rowCounts(): Promise<string> {
  const c = new pg.Client({ connectionString: t.databaseUrl });
  await c.connect();
  try {
    const { rows } = await c.query(
      `SELECT (SELECT count(*) FROM push_device_tokens) AS d, (SELECT count(*) FROM code_playgrounds) AS p, (SELECT count(*) FROM events) AS e`,
    );
    return JSON.stringify(rows[0]);
  } finally {
    await c.end();
  }
}

describe('malformed multipart bodies', () => {
  const post = (path: string, contentType: string, body: string) =>
    t.http.post(`/api/v1/${path}`).auth(t.owner.email, t.owner.apiKey).set('Content-Type', contentType).send(Buffer.from(body));

  it.each([
    ['no boundary', 'multipart/form-data', '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--x--\r\n'],
    ['a body that ends early', 'multipart/form-data; boundary=x', '--x\r\nContent-Disposition: form-data; name="token"\r\n\r\nabc'],
    ['a broken part header', 'multipart/form-data; boundary=x', `--x\r\nContent-Disposition: form-data; name="${'n'.repeat(100_000)}"\r\n\r\n1\r\n--x--\r\n`],
  ])('answer 400 Malformed payload and write nothing (%s)', async (_what, contentType, body) => {
    const before = await rowCounts();
    expectError(await post('users/me/apns_device_token', contentType, body), 400, 'Malformed payload');
    expectError(await post('realm/playgrounds', contentType, body), 400, 'Malformed payload');
    expect(await rowCounts()).toBe(before);
  });
});

describe('requests the HTTP parser refuses', () => {
  it('answers a request head over the size limit with the JSON envelope', async () => {
    const res = await t.get('users/me', { query: { x: 'a'.repeat(20_000) } });
    expect(res.status).toBe(431);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(JSON.parse(res.text)).toEqual({ result: 'error', msg: 'Request header fields too large', code: 'BAD_REQUEST' });
  });
});
