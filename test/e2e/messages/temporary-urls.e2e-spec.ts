import { createChannels } from '../../support/channels.js';
import { sendDirect } from '../../support/messages.js';
import { json, sessionOf } from '../../support/sessions.js';
import { type Account, expectError, expectSuccess, TestApp } from '../../support/test-app.js';

/*
 * Temporary upload URLs (Zulip's serve_file_url_backend and serve_file_unauthed_from_token):
 * GET /api/v1/user_uploads/{realm_id}/{filename} gives a caller who may read the upload a URL
 * that serves it without credentials for 60 seconds; the token in it is signed by the server.
 */

let t: TestApp;
let alice: Account;
let bob: Account;
let carol: Account;
let other: Account;
let url: string;
let pathId: string;

beforeAll(async () => {
  t = await TestApp.start({ THUMBNAIL_POLL_INTERVAL_MS: '0' });
  alice = await t.createUser({ fullName: 'Alice' });
  bob = await t.createUser({ fullName: 'Bob' });
  carol = await t.createUser({ fullName: 'Carol' });
  other = await t.createOrganization('elsewhere');
  await createChannels(t, ['general']);
  const res = await t.http.post('/api/v1/user_uploads').auth(alice.email, alice.apiKey).attach('file', Buffer.from('%PDF-1.4 the report'), 'Q3 report.pdf');
  expectSuccess(res);
  url = res.body.url;
  pathId = url.replace('/user_uploads/', '');
  await sendDirect(t, alice, [bob.id], `[report](${url})`);
}, 60_000);
afterAll(() => t.close());

const temporaryUrl = (as: Account, path = pathId) => t.get(`user_uploads/${path}`, { as });
const fetchUnauthed = (u: string, host?: string) => {
  const req = t.http.get(u).buffer(true);
  return host ? req.set('Host', host) : req;
};

describe('GET /api/v1/user_uploads/{realm_id}/{filename}', () => {
  it('gives a reader a URL that serves the file without credentials', async () => {
    const res = await temporaryUrl(bob);
    expectSuccess(res);
    expect(Object.keys(res.body).sort()).toEqual(['msg', 'result', 'url']);
    expect(res.body.url).toMatch(/^\/user_uploads\/temporary\/[0-9A-F]+\/Q3-report\.pdf$/);
    const dl = await fetchUnauthed(res.body.url);
    expect(dl.status).toBe(200);
    expect(dl.headers['content-type']).toBe('application/pdf');
    expect(dl.headers['content-disposition']).toBe("attachment; filename*=UTF-8''Q3%20report.pdf");
    expect(dl.headers['content-security-policy']).toMatch(/sandbox/);
    expect(dl.body.toString()).toBe('%PDF-1.4 the report');
    // The uploader may too, and the web app through its session.
    expectSuccess(await temporaryUrl(alice));
    const session = (await sessionOf(t, bob))!;
    const viaJson = await json(t, 'get', `user_uploads/${pathId}`, session);
    expectSuccess(viaJson);
    expect((await fetchUnauthed(viaJson.body.url)).status).toBe(200);
  });

  it('has the access rules of the file itself', async () => {
    expectError(await temporaryUrl(carol), 403, 'You are not authorized to view this file.', 'FORBIDDEN');
    expectError(await temporaryUrl(alice, pathId.replace(/\/[^/]+\/([^/]+)$/, '/AAAAAAAAAAAAAAAAAAAAAAAA/$1')), 404, 'File not found', 'NOT_FOUND');
    // Another organization's user: as a file that does not exist.
    expectError(await temporaryUrl(other), 404, 'File not found', 'NOT_FOUND');
    expectError(await t.get(`user_uploads/${pathId}`, { as: null }), 401, 'Not logged in: API authentication or user session required', 'UNAUTHORIZED');
  });
});

describe('GET /user_uploads/temporary/{token}/{filename}', () => {
  it('serves the file for 60 seconds, then answers "Invalid token"', async () => {
    const { body } = await temporaryUrl(bob);
    t.clock.advance(60);
    expect((await fetchUnauthed(body.url)).status).toBe(200);
    t.clock.advance(1);
    expectError(await fetchUnauthed(body.url), 400, 'Invalid token');
    // A URL asked for now is good again.
    expect((await fetchUnauthed((await temporaryUrl(bob)).body.url)).status).toBe(200);
  });

  it('refuses forged, altered and malformed tokens', async () => {
    const { body } = await temporaryUrl(bob);
    const [, , , token, filename] = (body.url as string).split('/');
    const signed = Buffer.from(token, 'hex').toString('utf8');
    const [path, issued, signature] = signed.split(':');
    expect(path).toBe(pathId);
    const hex = (s: string) => Buffer.from(s, 'utf8').toString('hex').toUpperCase();
    const forged = [
      // Another file of the organization, the same signature.
      hex(`${path.replace(/\/[^/]+\/[^/]+$/, '/AAAAAAAAAAAAAAAAAAAAAAAA/Q3-report.pdf')}:${issued}:${signature}`),
      // A later time, the same signature (to outlive its minute).
      hex(`${path}:${(parseInt(issued, 36) + 3600).toString(36)}:${signature}`),
      // A signature made up.
      hex(`${path}:${issued}:${'A'.repeat(43)}`),
      hex(`${path}:${issued}`),
      token.toLowerCase(),
      token.slice(1),
      'ZZ',
      'not-a-token',
    ];
    for (const f of forged) expectError(await fetchUnauthed(`/user_uploads/temporary/${f}/${filename}`), 400, 'Invalid token');
  });

  it('answers "Invalid filename" for a token of another file name', async () => {
    const { body } = await temporaryUrl(bob);
    const token = (body.url as string).split('/')[3];
    expectError(await fetchUnauthed(`/user_uploads/temporary/${token}/other.pdf`), 400, 'Invalid filename');
  });

  it("serves nothing on another organization's address, nor once the file is deleted", async () => {
    const { body } = await temporaryUrl(bob);
    expectError(await fetchUnauthed(body.url, other.host), 400, 'Invalid token');
    const up = await t.http.post('/api/v1/user_uploads').auth(alice.email, alice.apiKey).attach('file', Buffer.from('short-lived'), 'gone.txt');
    const gonePath = up.body.url.replace('/user_uploads/', '');
    const gone = (await temporaryUrl(alice, gonePath)).body.url;
    const [{ id }] = await t.sql(`SELECT id FROM attachments WHERE path_id = $1`, [gonePath]);
    expectSuccess(await t.delete(`attachments/${id}`, { as: alice }));
    expectError(await fetchUnauthed(gone), 400, 'Invalid token');
  });

  it('checks a token without writing anything', async () => {
    const before = await t.sql(`SELECT name FROM server_secrets`);
    expect(before).toEqual([{ name: 'user_uploads' }]);
    expectError(await fetchUnauthed(`/user_uploads/temporary/${'AB'.repeat(40)}/x.pdf`), 400, 'Invalid token');
    expect(await t.sql(`SELECT name FROM server_secrets`)).toEqual(before);
  });
});
