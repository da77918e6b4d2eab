import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { createChannels } from '../../support/channels.js';
import { EventClient } from '../../support/events.js';
import { sendToChannel } from '../../support/messages.js';
import { type Account, expectError, expectSuccess, TestApp } from '../../support/test-app.js';

let t: TestApp;
let alice: Account;
let bob: Account;
let otherOwner: Account;
let db: pg.Client;
beforeAll(async () => {
  t = await TestApp.start();
  alice = await t.createUser({ fullName: 'Alice' });
  bob = await t.createUser({ fullName: 'Bob' });
  otherOwner = await t.createOrganization('other');
  await createChannels(t, ['general']);
  await t.post('users/me/subscriptions', { form: { subscriptions: [{ name: 'general' }], principals: [alice.id, bob.id] } });
  db = new pg.Client({ connectionString: t.databaseUrl });
  await db.connect();
});
afterAll(async () => {
  await db.end();
  await t.close();
});

const upload = async (as: Account, name: string, body: string) => {
  let req = t.http.post('/api/v1/user_uploads').auth(as.email, as.apiKey);
  if (as.host) req = req.set('Host', as.host);
  const res = await req.attach('file', Buffer.from(body), name);
  expectSuccess(res);
  return res.body.url.replace('/user_uploads/', '') as string;
};
const storedFile = (pathId: string) => join(tmpdir(), `svc-test-uploads-${process.pid}`, pathId);
const attachmentRows = async () =>
  (await db.query(`SELECT id, owner_id, path_id, (SELECT count(*)::int FROM attachment_messages m WHERE m.attachment_id = a.id) AS links FROM attachments a ORDER BY id`)).rows;
const realmSpace = async (realmId: number) =>
  Number((await db.query(`SELECT COALESCE(SUM(size), 0) AS s FROM attachments WHERE realm_id = $1`, [realmId])).rows[0].s);
const realmOf = async (userId: number) => (await db.query(`SELECT realm_id FROM users WHERE id = $1`, [userId])).rows[0].realm_id as number;

describe('GET /attachments and attachment events', () => {
  it('lists the caller’s uploads with message_ids and the organization’s used space; upload and claim send add/update events', async () => {
    const events = await EventClient.register(t, alice, { event_types: ['attachment'] });
    const before = await realmSpace(await realmOf(alice.id));
    const pathId = await upload(alice, 'notes.txt', 'twelve bytes');
    const [added] = await events.ofType('attachment');
    const createTime = (added.attachment as { create_time: number }).create_time;
    expect(createTime).toBeLessThan(1e11);
    const attachment = { id: expect.any(Number), name: 'notes.txt', path_id: pathId, size: 12, create_time: createTime, message_ids: [] };
    expect(added).toEqual({ id: expect.any(Number), type: 'attachment', op: 'add', attachment, upload_space_used: before + 12 });
    const attachmentId = (added.attachment as { id: number }).id;

    const messageId = await sendToChannel(t, alice, 'general', 'files', `[notes](/user_uploads/${pathId})`);
    const [updated] = await events.ofType('attachment');
    expect(updated).toEqual({
      id: expect.any(Number),
      type: 'attachment',
      op: 'update',
      attachment: { ...attachment, id: attachmentId, message_ids: [messageId] },
      upload_space_used: before + 12,
    });

    // An edit that keeps the link claims nothing new: no event.
    expectSuccess(await t.patch(`messages/${messageId}`, { as: alice, form: { content: `still [notes](/user_uploads/${pathId})` } }));
    expect(await events.drain()).toEqual([]);

    const res = await t.get('attachments', { as: alice });
    expectSuccess(res);
    expect(res.body).toEqual({
      result: 'success',
      msg: '',
      attachments: [{ ...attachment, id: attachmentId, message_ids: [messageId] }],
      upload_space_used: before + 12,
    });
    // Bob sees only his own uploads (none), with the same organization-wide used space.
    expect((await t.get('attachments', { as: bob })).body).toEqual({ result: 'success', msg: '', attachments: [], upload_space_used: before + 12 });
    // Another organization counts only its own uploads.
    expect((await t.get('attachments', { as: otherOwner })).body).toEqual({ result: 'success', msg: '', attachments: [], upload_space_used: 0 });
  });

  it('sends the update event to the sender when an edit links an upload', async () => {
    const messageId = await sendToChannel(t, alice, 'general', 'edits', 'nothing yet');
    const pathId = await upload(alice, 'later.txt', 'abc');
    const events = await EventClient.register(t, alice, { event_types: ['attachment'] });
    expectSuccess(await t.patch(`messages/${messageId}`, { as: alice, form: { content: `now [later](/user_uploads/${pathId})` } }));
    const [updated] = await events.ofType('attachment');
    expect(updated).toMatchObject({ type: 'attachment', op: 'update', attachment: { path_id: pathId, message_ids: [messageId] } });
  });
});

describe('DELETE /attachments/{attachment_id}', () => {
  it('deletes the owner’s upload, its message links and its stored file, with a remove event', async () => {
    const pathId = await upload(alice, 'gone.txt', 'delete me');
    const messageId = await sendToChannel(t, alice, 'general', 'files', `[gone](/user_uploads/${pathId})`);
    const { id } = (await t.get('attachments', { as: alice })).body.attachments.find((a: { path_id: string }) => a.path_id === pathId);
    expect(existsSync(storedFile(pathId))).toBe(true);
    const space = await realmSpace(await realmOf(alice.id));
    const events = await EventClient.register(t, alice, { event_types: ['attachment'] });

    const res = await t.delete(`attachments/${id}`, { as: alice });
    expect(res.body).toEqual({ result: 'success', msg: '' });
    const [removed] = await events.ofType('attachment');
    expect(removed).toEqual({ id: expect.any(Number), type: 'attachment', op: 'remove', attachment: { id }, upload_space_used: space - 9 });
    expect((await attachmentRows()).some((r) => r.id === id)).toBe(false);
    expect(existsSync(storedFile(pathId))).toBe(false);
    expect((await t.get('attachments', { as: alice })).body.attachments.some((a: { id: number }) => a.id === id)).toBe(false);
    // The message itself stays.
    expect((await t.get(`messages/${messageId}`, { as: alice })).status).toBe(200);
  });

  it('refuses unknown ids, another user’s and another organization’s upload alike, changing nothing', async () => {
    const pathId = await upload(alice, 'keep.txt', 'keep');
    const otherPath = await upload(otherOwner, 'theirs.txt', 'theirs');
    const mine = (await t.get('attachments', { as: alice })).body.attachments.find((a: { path_id: string }) => a.path_id === pathId).id;
    const theirs = (await t.get('attachments', { as: otherOwner })).body.attachments[0].id;
    const rows = await attachmentRows();
    const events = await EventClient.register(t, alice, { event_types: ['attachment'] });
    const bobEvents = await EventClient.register(t, bob, { event_types: ['attachment'] });

    expectError(await t.delete(`attachments/${mine}`, { as: bob }), 400, 'Invalid attachment');
    expectError(await t.delete(`attachments/${theirs}`, { as: alice }), 400, 'Invalid attachment');
    expectError(await t.delete('attachments/999999', { as: alice }), 400, 'Invalid attachment');
    expectError(await t.delete(`attachments/${mine}`, { as: otherOwner }), 400, 'Invalid attachment');
    const notANumber = await t.delete('attachments/abc', { as: alice });
    expect(notANumber.status).toBe(404);
    expect(notANumber.body).toMatchObject({ result: 'error' });

    expect(await attachmentRows()).toEqual(rows);
    expect(existsSync(storedFile(pathId))).toBe(true);
    expect(existsSync(storedFile(otherPath))).toBe(true);
    expect(await events.drain()).toEqual([]);
    expect(await bobEvents.drain()).toEqual([]);
  });

  it('needs authentication', async () => {
    expect((await t.get('attachments', { as: null })).status).toBe(401);
    expect((await t.delete('attachments/1', { as: null })).status).toBe(401);
  });
});
