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

describe('channel folder names and archived folders', () => {
  // Zulip's unique constraint covers folders that are not archived only.
  const create = (name: string) => t.post('channel_folders/create', { form: { name, description: '' } });
  const update = (id: number, form: Record<string, unknown>) => t.patch(`channel_folders/${id}`, { form });

  it('lets a new or renamed folder take the name of an archived one', async () => {
    const old = (await create('Archive me')).body.channel_folder_id;
    expect((await update(old, { is_archived: true })).status).toBe(200);
    const again = await create('archive ME');
    expect({ status: again.status, result: again.body.result }).toEqual({ status: 200, result: 'success' });
    const other = (await create('Something else')).body.channel_folder_id;
    expect((await update(again.body.channel_folder_id, { is_archived: true })).status).toBe(200);
    const renamed = await update(other, { name: 'Archive me' });
    expect({ status: renamed.status, body: renamed.body }).toEqual({ status: 200, body: { result: 'success', msg: '' } });
  });

  it('refuses to unarchive a folder whose name an active folder has taken, writing nothing', async () => {
    const old = (await create('Reused')).body.channel_folder_id;
    expect((await update(old, { is_archived: true })).status).toBe(200);
    expect((await create('REUSED')).status).toBe(200);
    expectError(await update(old, { is_archived: false, description: 'changed' }), 400, 'Channel folder name already in use');
    const folders = (await t.get('channel_folders', { query: { include_archived: true } })).body.channel_folders;
    expect(folders.find((f: { id: number }) => f.id === old)).toMatchObject({ is_archived: true, description: '' });
  });
});

describe('HTTP Basic credentials the database cannot hold', () => {
  it.each([['a\u0000b@example.com'], ['owner@example.com\u0000']])('answers an address with a NUL (%j) as an invalid key', async (email) => {
    const res = await t.http.get('/api/v1/users/me').set('Authorization', `Basic ${Buffer.from(`${email}:${t.owner.apiKey}`).toString('base64')}`);
    expectError(res, 401, 'Invalid API key', 'UNAUTHORIZED');
  });
});
