import { createHash } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import type { Response } from 'supertest';
import { EventClient } from '../../support/events.js';
import { sendToChannel } from '../../support/messages.js';
import { createChannels } from '../../support/channels.js';
import { cookieHeader, sessionOf } from '../../support/sessions.js';
import { getBinary } from '../../support/images.js';
import { type Account, expectError, expectSuccess, TestApp } from '../../support/test-app.js';

/**
 * Uploaded avatars (Zulip's POST/DELETE /users/me/avatar and do_change_avatar_fields), the
 * avatar URLs every view shows, and the /avatar/{email_or_id} redirects.
 */

let t: TestApp;
let member: Account;
let admin: Account;
let other: Account;
let otherOwner: Account;
let realmId: number;
let channel: number;
let png: Buffer;
let jpeg: Buffer;

const gravatar = (email: string, version: number, medium = false) =>
  `https://secure.gravatar.com/avatar/${createHash('md5').update(email.toLowerCase()).digest('hex')}?d=identicon${medium ? '&s=500' : ''}&version=${version}`;
const avatarsDir = () => join(tmpdir(), `svc-test-uploads-${process.pid}`, 'avatars', String(realmId));
const storedAvatars = () => (existsSync(avatarsDir()) ? readdirSync(avatarsDir()).filter((f) => f.endsWith('.png')).sort() : []);
const avatarRow = async (id: number) => (await t.sql(`SELECT avatar_version, avatar_path FROM users WHERE id = $1`, [id]))[0];

type Part = { field?: string; body: Buffer; name: string; type?: string };
function upload(as: Account, parts: Part[]) {
  let req = t.http.post('/api/v1/users/me/avatar').auth(as.email, as.apiKey);
  if (as.host) req = req.set('Host', as.host);
  for (const [i, p] of parts.entries()) req = req.attach(p.field ?? `f${i + 1}`, p.body, { filename: p.name, contentType: p.type ?? 'image/png' });
  if (parts.length === 0) req = req.field('x', '1');
  return t.checkedAgainstDocument('post', req);
}
const image = async (res: Response) => sharp(res.body as Buffer).metadata();
const fetchFile = (url: string) => getBinary(t, url);

beforeAll(async () => {
  t = await TestApp.start();
  ({ admin, member, otherOwner } = await t.createRoleAccounts());
  other = await t.createUser({ fullName: 'Other member' });
  realmId = (await t.sql(`SELECT realm_id FROM users WHERE id = $1`, [member.id]))[0].realm_id;
  channel = (await createChannels(t, ['avatars'], { form: { principals: [member.id, other.id] } })).avatars;
  png = await sharp({ create: { width: 300, height: 200, channels: 3, background: '#ff0000' } }).png().toBuffer();
  jpeg = await sharp({ create: { width: 120, height: 640, channels: 3, background: '#00ff00' } }).jpeg().toBuffer();
});
afterAll(async () => {
  await t.close();
});

/** A refused upload or removal: exactly this error, no row or file changed, no event. */
async function expectRefused(as: Account, request: () => PromiseLike<Response>, msg: string, code = 'BAD_REQUEST') {
  const before = { row: await avatarRow(as.id), files: storedAvatars() };
  const queue = await EventClient.register(t, other, { event_types: ['realm_user', 'realm_bot'] });
  expectError(await request(), 400, msg, code);
  expect({ row: await avatarRow(as.id), files: storedAvatars() }).toEqual(before);
  expect(await queue.drain()).toEqual([]);
}

describe('POST /users/me/avatar', () => {
  let first: string;

  it('stores a 100×100 and a 500×500 PNG, bumps avatar_version, and tells everyone', async () => {
    const queues = [await EventClient.register(t, other), await EventClient.register(t, t.owner, { event_types: ['realm_user'], client_gravatar: true })];
    const res = await upload(member, [{ body: png, name: 'me.png' }]);
    expectSuccess(res);
    first = res.body.avatar_url;
    expect(first).toMatch(new RegExp(`^/user_avatars/${realmId}/[0-9a-f]{40}\\.png$`));
    const medium = first.replace(/\.png$/, '-medium.png');
    expect(await avatarRow(member.id)).toEqual({ avatar_version: 2, avatar_path: first.slice('/user_avatars/'.length, -'.png'.length) });
    expect(storedAvatars()).toEqual([first.split('/').pop(), medium.split('/').pop()].sort());

    const small = await fetchFile(first);
    expect(small.status).toBe(200);
    expect(small.headers['content-type']).toBe('image/png');
    expect(await image(small)).toMatchObject({ format: 'png', width: 100, height: 100 });
    expect(await image(await fetchFile(medium))).toMatchObject({ format: 'png', width: 500, height: 500 });

    const person = { avatar_source: 'U', avatar_url: first, avatar_url_medium: medium, avatar_version: 2, user_id: member.id };
    for (const q of queues) {
      const events = await q.ofType('realm_user');
      expect(events.map(({ id: _, ...e }) => e)).toEqual([{ type: 'realm_user', op: 'update', person }]);
    }
  });

  it('shows the uploaded avatar everywhere, even to client_gravatar clients', async () => {
    const state = (await EventClient.register(t, member, { client_gravatar: true })).state;
    expect(state).toMatchObject({ avatar_source: 'U', avatar_url: first, avatar_url_medium: first.replace(/\.png$/, '-medium.png') });
    const listed = (state.realm_users as { user_id: number; avatar_url: string | null }[]).find((u) => u.user_id === member.id);
    expect(listed?.avatar_url).toBe(first);
    expect((await t.get(`users/${member.id}`, { query: { client_gravatar: true } })).body.user.avatar_url).toBe(first);
    expect((await t.get('users', { query: { client_gravatar: true } })).body.members.find((u: { user_id: number }) => u.user_id === member.id).avatar_url).toBe(first);

    const queue = await EventClient.register(t, other, { event_types: ['message'], client_gravatar: true });
    const id = await sendToChannel(t, member, channel, 'avatars', 'with my new face');
    const [event] = await queue.ofType('message');
    expect((event.message as { avatar_url: string }).avatar_url).toBe(first);
    const fetched = await t.get('messages', { as: other, query: { anchor: id, num_before: 0, num_after: 0, client_gravatar: true } });
    expect(fetched.body.messages[0].avatar_url).toBe(first);
  });

  it('replaces the avatar: a new path, the old files removed', async () => {
    const res = await upload(member, [{ body: jpeg, name: 'me.jpg', type: 'image/jpeg' }]);
    expectSuccess(res);
    expect(res.body.avatar_url).not.toBe(first);
    expect((await avatarRow(member.id)).avatar_version).toBe(3);
    expect(storedAvatars()).toEqual([res.body.avatar_url.split('/').pop(), res.body.avatar_url.split('/').pop().replace('.png', '-medium.png')].sort());
    expect((await fetchFile(first)).status).toBe(404);
    // A tall image is cropped to its middle square.
    expect(await image(await fetchFile(res.body.avatar_url))).toMatchObject({ width: 100, height: 100 });
    first = res.body.avatar_url;
  });

  it('refuses anything but exactly one file', async () => {
    await expectRefused(member, () => upload(member, []), 'You must upload exactly one avatar.');
    await expectRefused(member, () => upload(member, [{ body: png, name: 'a.png' }, { body: png, name: 'b.png' }]), 'You must upload exactly one avatar.');
  });

  it('refuses a file over MAX_AVATAR_FILE_SIZE_MIB', async () => {
    const big = Buffer.concat([png, Buffer.alloc(5 * 1024 * 1024 + 1 - png.length)]);
    await expectRefused(member, () => upload(member, [{ body: big, name: 'big.png' }]), 'Uploaded file is larger than the allowed limit of 5 MiB');
  });

  it('refuses a file that claims no image type, and one that is no image', async () => {
    await expectRefused(member, () => upload(member, [{ body: Buffer.from('just text'), name: 'notes.txt', type: 'text/plain' }]), 'Invalid image format', 'BAD_IMAGE');
    await expectRefused(member, () => upload(member, [{ body: png, name: 'me.bmp', type: 'image/bmp' }]), 'Invalid image format', 'BAD_IMAGE');
    const notDecodable = 'Could not decode image; did you upload an image file?';
    await expectRefused(member, () => upload(member, [{ body: Buffer.from('just text'), name: 'fake.png' }]), notDecodable, 'BAD_IMAGE');
    // An SVG is an image, but not of a format the server decodes (Zulip blocks those loaders).
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>');
    await expectRefused(member, () => upload(member, [{ body: svg, name: 'fake.png' }]), notDecodable, 'BAD_IMAGE');
  });

  it('refuses a corrupt image and a decompression bomb', async () => {
    const truncated = png.subarray(0, Math.floor(png.length / 2));
    await expectRefused(member, () => upload(member, [{ body: truncated, name: 'half.png' }]), 'Image is corrupted or truncated', 'BAD_IMAGE');
    const garbled = Buffer.from(png);
    garbled[1] = 0;
    await expectRefused(member, () => upload(member, [{ body: garbled, name: 'garbled.png' }]), 'Could not decode image; did you upload an image file?', 'BAD_IMAGE');
    // 100 million pixels of one colour: a few hundred kilobytes that would take 300 MB decoded.
    const bomb = await sharp({ create: { width: 10_000, height: 10_000, channels: 3, background: '#000000' } }).png({ compressionLevel: 9 }).toBuffer();
    expect(bomb.length).toBeLessThan(1024 * 1024);
    await expectRefused(member, () => upload(member, [{ body: bomb, name: 'bomb.png' }]), 'Image size exceeds limit.', 'BAD_IMAGE');
  });

  it('obeys avatar_changes_disabled, except for administrators', async () => {
    await t.sql(`UPDATE realms SET avatar_changes_disabled = true WHERE id = $1`, [realmId]);
    try {
      await expectRefused(member, () => upload(member, [{ body: png, name: 'me.png' }]), 'Avatar changes are disabled in this organization.');
      await expectRefused(member, () => t.delete('users/me/avatar', { as: member }), 'Avatar changes are disabled in this organization.');
      // The count comes first, as in Zulip.
      await expectRefused(member, () => upload(member, []), 'You must upload exactly one avatar.');
      expectSuccess(await upload(admin, [{ body: png, name: 'admin.png' }]));
      expectSuccess(await t.delete('users/me/avatar', { as: admin }));
    } finally {
      await t.sql(`UPDATE realms SET avatar_changes_disabled = false WHERE id = $1`, [realmId]);
    }
  });

  it('lets a bot change its own avatar, telling its owner (realm_bot) and everyone (realm_user)', async () => {
    const bot = await t.createBot(member, 'painter');
    const ownerQueue = await EventClient.register(t, member, { event_types: ['realm_bot', 'realm_user'] });
    const res = await upload(bot, [{ body: png, name: 'bot.png' }]);
    expectSuccess(res);
    const got: Record<string, unknown>[] = [];
    while (got.length < 2) {
      const batch = await ownerQueue.next();
      if (batch.length === 0) break;
      got.push(...batch.map(({ id: _, ...e }) => e));
    }
    expect(got).toEqual([
      { type: 'realm_bot', op: 'update', bot: { user_id: bot.id, avatar_url: res.body.avatar_url } },
      { type: 'realm_user', op: 'update', person: expect.objectContaining({ user_id: bot.id, avatar_source: 'U', avatar_url: res.body.avatar_url }) },
    ]);
    const bots = (await t.get('bots', { as: member })).body.bots as { username: string; avatar_url: string }[];
    expect(bots.find((b) => b.username === bot.email)?.avatar_url).toBe(res.body.avatar_url);
  });

  it('changes only the caller of another organization', async () => {
    const before = { row: await avatarRow(member.id), files: storedAvatars() };
    const res = await upload(otherOwner, [{ body: png, name: 'elsewhere.png' }]);
    expectSuccess(res);
    const otherRealm = (await t.sql(`SELECT realm_id FROM users WHERE id = $1`, [otherOwner.id]))[0].realm_id;
    expect(res.body.avatar_url).toMatch(new RegExp(`^/user_avatars/${otherRealm}/[0-9a-f]{40}\\.png$`));
    expect({ row: await avatarRow(member.id), files: storedAvatars() }).toEqual(before);
  });
});

describe('DELETE /users/me/avatar', () => {
  it('goes back to the Gravatar, removes the files and tells everyone', async () => {
    const queue = await EventClient.register(t, other, { event_types: ['realm_user'] });
    const before = await avatarRow(member.id);
    const res = await t.delete('users/me/avatar', { as: member });
    expectSuccess(res, { avatar_url: gravatar(member.email, before.avatar_version + 1) });
    expect(await avatarRow(member.id)).toEqual({ avatar_version: before.avatar_version + 1, avatar_path: null });
    expect(storedAvatars().filter((f) => f.startsWith(before.avatar_path.split('/')[1]))).toEqual([]);
    const [event] = await queue.ofType('realm_user');
    expect(event.person).toEqual({
      avatar_source: 'G',
      avatar_url: gravatar(member.email, before.avatar_version + 1),
      avatar_url_medium: gravatar(member.email, before.avatar_version + 1, true),
      avatar_version: before.avatar_version + 1,
      user_id: member.id,
    });
    const state = (await EventClient.register(t, member)).state;
    expect(state).toMatchObject({ avatar_source: 'G', avatar_url_medium: gravatar(member.email, before.avatar_version + 1, true) });
  });

  it('changes nothing for a Gravatar avatar (answering its URL)', async () => {
    const row = await avatarRow(other.id);
    const queue = await EventClient.register(t, member, { event_types: ['realm_user'] });
    expectSuccess(await t.delete('users/me/avatar', { as: other }), { avatar_url: gravatar(other.email, row.avatar_version) });
    expect(await avatarRow(other.id)).toEqual(row);
    expect(await queue.drain()).toEqual([]);
  });
});

describe('GET /avatar/{email_or_id}', () => {
  let url: string;
  beforeAll(async () => {
    url = (await upload(other, [{ body: png, name: 'other.png' }])).body.avatar_url;
  });
  const get = (path: string, as: Account | null = member) => {
    let req = t.http.get(path);
    if (as) req = req.auth(as.email, as.apiKey);
    if (as?.host) req = req.set('Host', as.host);
    return req.redirects(0);
  };

  it('redirects to the avatar by id or API email, the query string appended', async () => {
    for (const key of [String(other.id), other.email, other.email.toUpperCase()]) {
      const res = await get(`/avatar/${key}?foo=bar`);
      expect({ status: res.status, location: res.headers.location }).toEqual({ status: 302, location: `${url}?foo=bar` });
      const medium = await get(`/avatar/${key}/medium`);
      expect(medium.headers.location).toBe(url.replace(/\.png$/, '-medium.png'));
    }
    const gravatarUser = await get(`/avatar/${member.id}?s=50`);
    expect(gravatarUser.headers.location).toBe(`${gravatar(member.email, (await avatarRow(member.id)).avatar_version)}&s=50`);
  });

  it('answers a new Gravatar of the text for nobody, and for a user of another organization', async () => {
    expect((await get('/avatar/nobody@example.com?foo=bar')).headers.location).toBe(`${gravatar('nobody@example.com', 1)}&foo=bar`);
    expect((await get('/avatar/999999/medium')).headers.location).toBe(gravatar('999999', 1, true));
    const res = await get(`/avatar/${other.id}`, otherOwner);
    expect({ status: res.status, location: res.headers.location }).toEqual({ status: 302, location: gravatar(String(other.id), 1) });
  });

  it('takes the session cookie too, and nobody without credentials', async () => {
    const session = (await sessionOf(t, member))!;
    const res = await t.http.get(`/avatar/${other.id}`).set('Cookie', cookieHeader(session)).redirects(0);
    expect({ status: res.status, location: res.headers.location }).toEqual({ status: 302, location: url });
    expectError(await get(`/avatar/${other.id}`, null), 401, 'Not logged in: API authentication or user session required', 'UNAUTHORIZED');
  });

  it('serves no file that is not an avatar', async () => {
    for (const path of [`/user_avatars/${realmId}/${'0'.repeat(40)}.png`, `/user_avatars/${realmId}/x.png`, '/user_avatars/x/y.png', `/user_avatars/${realmId}/..%2F..%2Fetc.png`]) {
      expect((await t.http.get(path)).status, path).toBe(404);
    }
  });
});
