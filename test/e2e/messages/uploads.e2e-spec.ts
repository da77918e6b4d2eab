import pg from 'pg';
import { createChannels } from '../../support/channels.js';
import { sendDirect, sendToChannel } from '../../support/messages.js';
import { type Account, expectError, expectSuccess, TestApp } from '../../support/test-app.js';

let t: TestApp;
let alice: Account;
let bob: Account;
let carol: Account;
beforeAll(async () => {
  t = await TestApp.start();
  alice = await t.createUser({ fullName: 'Alice' });
  bob = await t.createUser({ fullName: 'Bob' });
  carol = await t.createUser({ fullName: 'Carol' });
  await createChannels(t, ['general']);
  await t.post('users/me/subscriptions', { form: { subscriptions: [{ name: 'general' }], principals: [alice.id, bob.id] } });
});
afterAll(() => t.close());

const upload = (as: Account, name: string, body: Buffer | string) =>
  t.http.post('/api/v1/user_uploads').auth(as.email, as.apiKey).attach('file', Buffer.from(body), name);

describe('uploads', () => {
  it('stores a file, lets its readers download it, and reports it detached when edited away', async () => {
    const res = await upload(alice, 'Quarterly report (final).pdf', '%PDF-1.4 fake');
    expectSuccess(res);
    expect(res.body.url).toMatch(/^\/user_uploads\/\d+\/[0-9a-f]{2}\/[A-Za-z0-9_-]{24}\/Quarterly-report-final\.pdf$/);
    expect(res.body.uri).toBe(res.body.url);
    expect(res.body.filename).toBe('Quarterly-report-final.pdf');

    const id = await sendToChannel(t, alice, 'general', 'files', `see [report](${res.body.url})`);
    const dl = await t.http.get(res.body.url).auth(bob.email, bob.apiKey).buffer(true);
    expect(dl.status).toBe(200);
    expect(dl.headers['content-type']).toBe('application/pdf');
    // A browser renders PDF as a document with scripts: downloaded, never shown inline.
    expect(dl.headers['content-disposition']).toMatch(/^attachment; filename\*=UTF-8''Quarterly%20report%20\(final\)\.pdf$/);
    expect(dl.body.toString()).toBe('%PDF-1.4 fake');
    expect((await t.get('messages', { as: bob, query: { anchor: 'newest', num_before: 5, narrow: [['has', 'attachment']] } })).body.messages.map((m: { id: number }) => m.id)).toEqual([id]);

    const edited = await t.patch(`messages/${id}`, { as: alice, form: { content: 'never mind' } });
    expectSuccess(edited);
    expect(edited.body.detached_uploads).toEqual([
      {
        id: expect.any(Number),
        name: 'Quarterly report (final).pdf',
        path_id: res.body.url.replace('/user_uploads/', ''),
        size: 13,
        create_time: expect.any(Number),
        message_ids: [],
      },
    ]);
    expect(edited.body.detached_uploads[0].create_time).toBeLessThan(1e11); // seconds, not milliseconds
  });

  it('keeps uploads still referenced elsewhere out of detached_uploads', async () => {
    const { body } = await upload(alice, 'shared.txt', 'hello');
    const first = await sendToChannel(t, alice, 'general', 'files', `[a](${body.url})`);
    await sendToChannel(t, alice, 'general', 'files', `[again](${body.url})`);
    const edited = await t.patch(`messages/${first}`, { as: alice, form: { content: 'gone from here' } });
    expect(edited.body.detached_uploads).toEqual([]);
  });

  it('refuses downloads to people who cannot read a linking message', async () => {
    const { body } = await upload(alice, 'secret.txt', 'psst');
    await sendDirect(t, alice, [bob.id], `[s](${body.url})`);
    expect((await t.http.get(body.url).auth(bob.email, bob.apiKey)).status).toBe(200);
    const denied = await t.http.get(body.url).auth(carol.email, carol.apiKey);
    expect(denied.status).toBe(403);
    const missing = await t.http.get('/user_uploads/1/ab/AAAAAAAAAAAAAAAAAAAAAAAA/none.txt').auth(bob.email, bob.apiKey);
    expect(missing.status).toBe(404);
    expect((await t.http.get(body.url)).status).toBe(401);
  });

  it('does not let a message claim an upload its sender cannot read: the link grants nothing (issue 13, finding 6)', async () => {
    const { body } = await upload(alice, 'private.txt', 'for bob only');
    const pathId = body.url.replace('/user_uploads/', '');
    await sendDirect(t, alice, [bob.id], `[p](${body.url})`);
    const links = async () => {
      const db = new pg.Client({ connectionString: t.databaseUrl });
      await db.connect();
      try {
        const { rows } = await db.query(`SELECT m.message_id FROM attachment_messages m JOIN attachments a ON a.id = m.attachment_id WHERE a.path_id = $1 ORDER BY 1`, [pathId]);
        return rows.map((r: { message_id: number }) => Number(r.message_id));
      } finally {
        await db.end();
      }
    };
    const before = await links();
    expect(before).toHaveLength(1);

    // Carol reads no message linking it: her message keeps the link as text, attaches nothing.
    const foreign = await sendDirect(t, carol, [carol.id], `look: [p](${body.url})`);
    expect(await links()).toEqual(before);
    const hasAttachment = await t.get('messages', { as: carol, query: { anchor: 'newest', num_before: 5, narrow: [['has', 'attachment']] } });
    expect(hasAttachment.body.messages.map((m: { id: number }) => m.id)).not.toContain(foreign);
    expect((await t.http.get(body.url).auth(carol.email, carol.apiKey)).status).toBe(403);
    // Nor does an edit that adds the link.
    const plain = await sendDirect(t, carol, [carol.id], 'nothing yet');
    expectSuccess(await t.patch(`messages/${plain}`, { as: carol, form: { content: `now: [p](${body.url})` } }));
    expect(await links()).toEqual(before);
    expect((await t.http.get(body.url).auth(carol.email, carol.apiKey)).status).toBe(403);

    // Bob reads the direct message that links it: he may reference it, as Zulip's validate_attachment_request.
    const shared = await sendDirect(t, bob, [carol.id], `[p](${body.url})`);
    expect(await links()).toEqual([...before, shared].sort((a, b) => a - b));
    expect((await t.http.get(body.url).auth(carol.email, carol.apiKey)).status).toBe(200);
  });

  it('needs exactly one file', async () => {
    expectError(await t.http.post('/api/v1/user_uploads').auth(alice.email, alice.apiKey).field('x', '1'), 400, 'You must specify a file to upload');
    const two = await t.http
      .post('/api/v1/user_uploads')
      .auth(alice.email, alice.apiKey)
      .attach('a', Buffer.from('1'), 'a.txt')
      .attach('b', Buffer.from('2'), 'b.txt');
    expectError(two, 400, 'You may only upload one file at a time');
  });
});

describe('how uploads are served', () => {
  const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201c5e0c6f80000000049454e44ae426082', 'hex');
  const uploadAs = (name: string, body: Buffer | string, contentType: string) =>
    t.http.post('/api/v1/user_uploads').auth(alice.email, alice.apiKey).attach('file', Buffer.from(body), { filename: name, contentType });
  const download = async (name: string, body: Buffer | string, contentType: string) => {
    const up = await uploadAs(name, body, contentType);
    expectSuccess(up);
    await sendDirect(t, alice, [bob.id], `[f](${up.body.url})`);
    const dl = await t.http.get(up.body.url).auth(bob.email, bob.apiKey).buffer(true);
    expect(dl.status).toBe(200);
    expect(dl.headers['x-content-type-options']).toBe('nosniff');
    expect(dl.headers['content-security-policy']).toMatch(/^default-src 'none';.*\bsandbox\b/);
    return dl;
  };

  it('serves a script claimed as image/png as neither HTML nor inline', async () => {
    const dl = await download('cat.png', '<script>alert(document.cookie)</script>', 'image/png');
    expect(dl.headers['content-type']).not.toMatch(/html|image\/png|svg|xml/);
    expect(dl.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(dl.headers['content-disposition']).toMatch(/^attachment;/);
    expect(dl.text).toBe('<script>alert(document.cookie)</script>');
  });

  it('trusts the bytes, not the claimed type or name', async () => {
    const png = await download('page.html', PNG, 'text/html');
    expect(png.headers['content-type']).toBe('image/png');
    expect(png.headers['content-disposition']).toMatch(/^inline;/);

    for (const [name, body, claimed] of [
      ['drawing.svg', '<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>', 'image/svg+xml'],
      ['page.html', '\ufeff  <!DOCTYPE html><html><body onload="alert(1)"></body></html>', 'text/html'],
      ['feed.xml', '<?xml version="1.0"?><feed/>', 'application/xml'],
      ['doc.pdf', '%PDF-1.7 with /JavaScript inside', 'image/png'],
      ['blob.bin', Buffer.from([0, 1, 2, 3, 0xff, 0xfe, 0, 0]), 'image/jpeg'],
    ] as const) {
      const dl = await download(name, body, claimed);
      expect(dl.headers['content-type'], name).not.toMatch(/html|svg|xml|image\/jpeg/);
      expect(dl.headers['content-disposition'], name).toMatch(/^attachment;/);
    }

    const text = await download('notes.txt', 'just some notes, 2 < 3', 'application/octet-stream');
    expect(text.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(text.headers['content-disposition']).toMatch(/^inline;/);
  });

  it('sends nosniff and a Referrer-Policy on every response', async () => {
    const responses = {
      public: await t.http.get('/api/v1/server_settings'),
      authenticated: await t.get('users/me', { as: alice }),
      'unknown route': await t.http.get('/api/v1/no/such/route'),
      unauthenticated: await t.get('users/me', { as: null }),
    };
    for (const [what, res] of Object.entries(responses)) {
      expect(res.headers['x-content-type-options'], what).toBe('nosniff');
      expect(res.headers['referrer-policy'], what).toBe('strict-origin-when-cross-origin');
    }
  });
});
