import { createReadStream } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as tar from 'tar';
import { createChannels } from '../../support/channels.js';
import { EventClient } from '../../support/events.js';
import { sendDirect, sendToChannel } from '../../support/messages.js';
import { type Account, expectError, expectSuccess, TestApp } from '../../support/test-app.js';

/**
 * Organization data exports (issue 25): POST/GET /export/realm, DELETE /export/realm/{id},
 * GET /export/realm/consents, the `realm_export` and `realm_export_consent` events, the worker
 * that writes the archive, and the archive's download at its export_url.
 */
type Export = { id: number; export_time: number; acting_user_id: number; export_url: string | null; deleted_timestamp: number | null; failed_timestamp: number | null; pending: boolean; export_type: string };

let t: TestApp;
let admin: Account;
let moderator: Account;
let member: Account;
let guest: Account;
let bot: Account;
let other: Account;
let work: string;
let secretChannel: number;
let publicChannel: number;

const exportsOf = async (as: Account = t.owner): Promise<Export[]> => (await t.get('export/realm', { as })).body.exports;

/** Waits for the worker to finish the export (succeeded or failed). */
async function finished(id: number, as: Account = t.owner): Promise<Export> {
  for (let i = 0; i < 300; i++) {
    const e = (await exportsOf(as)).find((x) => x.id === id);
    if (e !== undefined && !e.pending) return e;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`export ${id} still pending`);
}

/** Clears the organization's export rate limit window (as if the earlier exports were older than a week). */
const ageExports = () => t.sql(`UPDATE realm_exports SET date_requested = date_requested - interval '8 days'`);

/** Downloads the archive and unpacks it; returns the folder. */
async function unpack(url: string, as: Account = t.owner): Promise<string> {
  const path = new URL(url).pathname;
  const res = await t.http.get(path).set('Host', new URL(url).host).auth(as.email, as.apiKey).buffer(true).parse((r, cb) => {
    const chunks: Buffer[] = [];
    r.on('data', (c: Buffer) => chunks.push(c));
    r.on('end', () => cb(null, Buffer.concat(chunks)));
  });
  expect(res.status).toBe(200);
  expect(res.headers['content-type']).toBe('application/gzip');
  const dir = await mkdtemp(join(work, 'x-'));
  const file = join(dir, 'a.tar.gz');
  await import('node:fs/promises').then((fs) => fs.writeFile(file, res.body as Buffer));
  await tar.x({ file, cwd: dir });
  return dir;
}
const table = async (dir: string, name: string) => JSON.parse(await readFile(join(dir, `${name}.json`), 'utf8')) as Record<string, unknown>[];

beforeAll(async () => {
  t = await TestApp.start({ EXPORT_POLL_INTERVAL_MS: '200' });
  ({ admin, moderator, member, guest, bot, otherOwner: other } = await t.createRoleAccounts());
  work = await mkdtemp(join(tmpdir(), 'svc-exports-'));
  const ids = await createChannels(t, ['lobby', 'secret'], { form: { principals: [t.owner.id, member.id] } });
  publicChannel = ids.lobby;
  await t.post('users/me/subscriptions', { form: { subscriptions: [{ name: 'secret' }], invite_only: true } });
  secretChannel = (await createChannels(t, ['hush'], { form: { invite_only: true, principals: [t.owner.id, member.id] } })).hush;
}, 60_000);
afterAll(async () => {
  await t?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

describe('POST /export/realm', () => {
  it('queues a public export, tells the administrators, and the worker writes the archive', async () => {
    const m1 = await sendToChannel(t, member, publicChannel, 'hello', 'public words');
    await sendToChannel(t, member, secretChannel, 'psst', 'secret words');
    await sendDirect(t, member, [t.owner.id], 'direct words');
    await t.post(`messages/${m1}/reactions`, { as: t.owner, form: { emoji_name: 'smile' } });
    const [ownerQ, adminQ, memberQ] = await Promise.all([t.owner, admin, member].map((a) => EventClient.register(t, a, { event_types: ['realm_export'] })));
    const res = await t.post('export/realm', { as: admin });
    expectSuccess(res);
    const id = res.body.id as number;
    const [pending] = await ownerQ.ofType('realm_export');
    expect((pending.exports as Export[]).find((e) => e.id === id)).toMatchObject({ id, acting_user_id: admin.id, export_type: 'public', export_url: null, deleted_timestamp: null, failed_timestamp: null });
    expect((await adminQ.ofType('realm_export')).length).toBeGreaterThan(0);
    const done = await finished(id);
    expect(done).toMatchObject({ id, pending: false, failed_timestamp: null, export_type: 'public' });
    expect(done.export_url).toMatch(/^http:\/\/chat\.example\.com\/user_avatars\/exports\/\d+\/[0-9a-f]{32}\/organization-export-\d+\.tar\.gz$/);
    const [succeeded] = await ownerQ.ofType('realm_export');
    expect((succeeded.exports as Export[]).find((e) => e.id === id)?.export_url).toBe(done.export_url);
    expect(await memberQ.drain()).toEqual([]);

    const dir = await unpack(done.export_url!);
    const manifest = JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8'));
    expect(manifest).toMatchObject({ format: 'svc-organization-archive', version: 1, export_type: 'public', organization: { string_id: '' } });
    const users = await table(dir, 'users');
    expect(users.map((u) => u.delivery_email)).toContain(member.email);
    for (const u of users) expect(Object.keys(u)).not.toEqual(expect.arrayContaining(['password_hash']));
    expect(users.some((u) => 'api_key' in u || 'password_hash' in u)).toBe(false);
    const contents = (await table(dir, 'messages')).map((m) => m.content);
    expect(contents).toContain('public words');
    expect(contents).not.toContain('secret words');
    expect(contents).not.toContain('direct words');
    expect(await table(dir, 'user_messages')).toEqual([]);
    expect((await table(dir, 'reactions')).map((r) => r.emoji_name)).toEqual(['smile']);
    expect((await table(dir, 'channels')).map((c) => c.name)).toEqual(expect.arrayContaining(['lobby', 'hush']));
  }, 60_000);

  it('a full export with consent holds the private messages of consenting users', async () => {
    await ageExports();
    const refused = await t.post('export/realm', { form: { export_type: 'full_with_consent' } });
    expectError(refused, 400, `Make sure at least one Organization Owner is consenting to the export or contact ${'owner@example.com'} for help.`);
    const adminQ = await EventClient.register(t, admin, { event_types: ['realm_export_consent'] });
    expectSuccess(await t.patch('settings', { form: { allow_private_data_export: true } }));
    expect((await adminQ.ofType('realm_export_consent')).map(({ id: _id, ...e }) => e)).toEqual([{ type: 'realm_export_consent', user_id: t.owner.id, consented: true }]);
    const consents = (await t.get('export/realm/consents', { as: admin })).body.export_consents as { user_id: number; consented: boolean }[];
    expect(consents.find((c) => c.user_id === t.owner.id)).toEqual({ user_id: t.owner.id, consented: true, email_address_visibility: expect.any(Number) });
    expect(consents.find((c) => c.user_id === member.id)?.consented).toBe(false);
    expect(consents.some((c) => c.user_id === bot.id)).toBe(false);

    const res = await t.post('export/realm', { form: { export_type: 'full_with_consent' } });
    expectSuccess(res);
    const done = await finished(res.body.id);
    expect(done).toMatchObject({ export_type: 'full_with_consent', failed_timestamp: null });
    const dir = await unpack(done.export_url!);
    const contents = (await table(dir, 'messages')).map((m) => m.content);
    expect(contents).toEqual(expect.arrayContaining(['public words', 'secret words', 'direct words']));
    const flags = await table(dir, 'user_messages');
    expect(new Set(flags.map((f) => f.user_id))).toEqual(new Set([t.owner.id]));
    // Integers of earlier feature levels are still taken.
    await ageExports();
    const legacy = await t.post('export/realm', { form: { export_type: '1' } });
    expectSuccess(legacy);
    expect((await finished(legacy.body.id)).export_type).toBe('public');
  }, 60_000);

  it('refuses a sixth export within a week with "Exceeded rate limit."', async () => {
    await ageExports();
    for (let i = 0; i < 5; i++) expectSuccess(await t.post('export/realm'));
    expectError(await t.post('export/realm'), 400, 'Exceeded rate limit.');
    await Promise.all((await exportsOf()).map((e) => finished(e.id)));
  }, 60_000);

  it('refuses a bad export_type, changing nothing', async () => {
    await ageExports();
    const before = (await exportsOf()).length;
    expectError(await t.post('export/realm', { form: { export_type: 'everything' } }), 400, 'Invalid export_type');
    expectError(await t.post('export/realm', { form: { export_type: '3' } }), 400, 'Invalid export_type');
    expectError(await t.post('export/realm', { form: { export_type: 'x'.repeat(5000) } }), 400, 'export_type is too long (limit: 40 characters)');
    expect(await t.post('export/realm', { form: { export_type: 'full_without_consent' } }).then((r) => r.status)).toBe(400);
    expect((await exportsOf()).length).toBe(before);
  });

  it('is for administrators only; another organization has its own exports', async () => {
    for (const as of [moderator, member, guest, bot]) {
      expectError(await t.post('export/realm', { as }), 400, 'Must be an organization administrator', 'UNAUTHORIZED_PRINCIPAL');
      expectError(await t.get('export/realm', { as }), 400, 'Must be an organization administrator', 'UNAUTHORIZED_PRINCIPAL');
      expectError(await t.get('export/realm/consents', { as }), 400, 'Must be an organization administrator', 'UNAUTHORIZED_PRINCIPAL');
    }
    expect(await exportsOf(other)).toEqual([]);
    const theirs = (await t.get('export/realm/consents', { as: other })).body.export_consents as { user_id: number }[];
    expect(theirs.map((c) => c.user_id)).toEqual([other.id]);
  });

  it('a public export needs an owner whose address administrators may see', async () => {
    await ageExports();
    expectSuccess(await t.patch('settings', { form: { email_address_visibility: 4 } }));
    expectError(
      await t.post('export/realm'),
      400,
      'Make sure at least one Organization Owner allows other Administrators to see their email address or contact owner@example.com for help',
    );
    expectSuccess(await t.patch('settings', { form: { email_address_visibility: 1 } }));
  });
});

describe('DELETE /export/realm/{export_id} and the download', () => {
  it('deletes the archive and marks the export deleted; the link stops working', async () => {
    await ageExports();
    const id = (await t.post('export/realm')).body.id as number;
    const done = await finished(id);
    const url = new URL(done.export_url!);
    expect((await t.http.get(url.pathname).auth(member.email, member.apiKey)).body).toMatchObject({ msg: 'Must be an organization administrator' });
    const theirs = await t.http.get(url.pathname).set('Host', 'other.chat.example.com').auth(other.email, other.apiKey);
    expectError(theirs, 404, 'File not found', 'NOT_FOUND');
    expect((await t.http.get(url.pathname.replace(/[0-9a-f]{32}/, 'a'.repeat(32))).auth(admin.email, admin.apiKey)).status).toBe(404);
    expect((await t.http.get(url.pathname).auth(admin.email, admin.apiKey)).status).toBe(200);

    expectError(await t.delete(`export/realm/${id}`, { as: member }), 400, 'Must be an organization administrator', 'UNAUTHORIZED_PRINCIPAL');
    expectError(await t.delete(`export/realm/${id}`, { as: other }), 400, 'Invalid data export ID');
    const adminQ = await EventClient.register(t, admin, { event_types: ['realm_export'] });
    expectSuccess(await t.delete(`export/realm/${id}`, { as: admin }));
    const [event] = await adminQ.ofType('realm_export');
    expect((event.exports as Export[]).find((e) => e.id === id)).toMatchObject({ export_url: null, deleted_timestamp: expect.any(Number), pending: false });
    expect((await exportsOf()).find((e) => e.id === id)).toMatchObject({ export_url: null, deleted_timestamp: expect.any(Number) });
    expectError(await t.delete(`export/realm/${id}`), 400, 'Export already deleted');
    expectError(await t.http.get(url.pathname).auth(admin.email, admin.apiKey), 404, 'File not found', 'NOT_FOUND');
    const [{ export_path: path }] = await t.sql(`SELECT export_path FROM realm_exports WHERE id = $1`, [id]);
    const uploads = join(tmpdir(), `svc-test-uploads-${process.pid}`);
    await expect(stat(join(uploads, path))).rejects.toThrow();
    expect(await readdir(join(uploads, 'exports'))).toBeDefined();
  }, 60_000);

  it('an unknown id, one still being written and a failed one have Zulip\'s answers', async () => {
    expectError(await t.delete('export/realm/999999'), 400, 'Invalid data export ID');
    const [{ id: pending }] = await t.sql(
      `INSERT INTO realm_exports (realm_id, acting_user_id, export_type, status, date_requested, lease_token, lease_until)
       SELECT realm_id, id, 'public', 'started', now() - interval '30 days', gen_random_uuid(), now() + interval '1 hour' FROM users WHERE id = $1 RETURNING id`,
      [t.owner.id],
    );
    expectError(await t.delete(`export/realm/${pending}`), 400, 'Export still in progress');
    await t.sql(`UPDATE realm_exports SET status = 'failed', date_failed = now(), lease_token = NULL WHERE id = $1`, [pending]);
    expectError(await t.delete(`export/realm/${pending}`), 400, 'Export failed, nothing to delete');
    expect((await exportsOf()).find((e) => e.id === pending)).toMatchObject({ pending: false, failed_timestamp: expect.any(Number), export_url: null });
    // A non-numeric id is not a route.
    expect((await t.delete('export/realm/abc')).status).toBe(404);
  });
});

describe('the worker', () => {
  it('takes over an export whose writer died (its lease ran out) and gives one up after three tries', async () => {
    const [{ id: orphan }] = await t.sql(
      `INSERT INTO realm_exports (realm_id, acting_user_id, export_type, status, date_requested, attempts, lease_token, lease_until)
       SELECT realm_id, id, 'public', 'started', now() - interval '30 days', 1, gen_random_uuid(), now() - interval '1 day' FROM users WHERE id = $1 RETURNING id`,
      [t.owner.id],
    );
    expect(await finished(orphan)).toMatchObject({ failed_timestamp: null, export_url: expect.stringContaining('/user_avatars/exports/') });
    const [{ id: hopeless }] = await t.sql(
      `INSERT INTO realm_exports (realm_id, acting_user_id, export_type, status, date_requested, attempts, lease_token, lease_until)
       SELECT realm_id, id, 'public', 'started', now() - interval '30 days', 3, gen_random_uuid(), now() - interval '1 day' FROM users WHERE id = $1 RETURNING id`,
      [t.owner.id],
    );
    expect(await finished(hopeless)).toMatchObject({ failed_timestamp: expect.any(Number), export_url: null });
    const [row] = await t.sql(`SELECT status, attempts, last_error FROM realm_exports WHERE id = $1`, [hopeless]);
    expect(row).toEqual({ status: 'failed', attempts: 4, last_error: 'interrupted too many times' });
  }, 60_000);

  it('an archive streams as a valid .tar.gz', async () => {
    const done = (await exportsOf()).find((e) => e.export_url !== null)!;
    const [{ export_path: path }] = await t.sql(`SELECT export_path FROM realm_exports WHERE id = $1`, [done.id]);
    const names: string[] = [];
    await new Promise<void>((resolve, reject) => {
      createReadStream(join(tmpdir(), `svc-test-uploads-${process.pid}`, path))
        .pipe(tar.t({ onReadEntry: (e) => names.push(e.path) }))
        .on('finish', resolve)
        .on('error', reject);
    });
    expect(names[0]).toBe('manifest.json');
    expect(names).toEqual(expect.arrayContaining(['users.json', 'messages.json', 'channels.json', 'realm.json']));
  });
});
