import { existsSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { systemGroups } from '../../support/channels.js';
import { EventClient } from '../../support/events.js';
import { type Account, expectError, expectSuccess, TestApp } from '../../support/test-app.js';

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
const GIF = Buffer.from('R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==', 'base64');

let t: TestApp;
let admin: Account;
let member: Account;
let other: Account;
let guest: Account;
let bot: Account;
let otherOwner: Account;
let groups: Record<string, number>;
let db: pg.Client;
let realmId: number;
beforeAll(async () => {
  t = await TestApp.start();
  ({ admin, member, guest, bot, otherOwner } = await t.createRoleAccounts());
  other = await t.createUser({ fullName: 'Other member' });
  groups = await systemGroups(t);
  db = new pg.Client({ connectionString: t.databaseUrl });
  await db.connect();
  realmId = (await db.query(`SELECT realm_id FROM users WHERE id = $1`, [member.id])).rows[0].realm_id;
});
afterAll(async () => {
  await db.end();
  await t.close();
});

type Part = { field?: string; body: Buffer; name: string; type?: string };
const upload = (as: Account, name: string, parts: Part[] = [{ body: PNG, name: 'e.png' }]) => {
  let req = t.http.post(`/api/v1/realm/emoji/${name}`).auth(as.email, as.apiKey);
  if (as.host) req = req.set('Host', as.host);
  for (const [i, p] of parts.entries()) req = req.attach(p.field ?? `f${i + 1}`, p.body, p.type ? { filename: p.name, contentType: p.type } : p.name);
  if (parts.length === 0) req = req.field('x', '1');
  return req;
};
const listEmoji = async (as: Account = member) => {
  const res = await t.get('realm/emoji', { as });
  expectSuccess(res);
  return res.body.emoji as Record<string, Record<string, unknown>>;
};
const imagesDir = (realm: number) => join(tmpdir(), `svc-test-uploads-${process.pid}`, 'avatars', String(realm), 'emoji', 'images');
const storedImages = (realm: number) => (existsSync(imagesDir(realm)) ? readdirSync(imagesDir(realm)).sort() : []);
const emojiRows = async () => (await db.query(`SELECT * FROM realm_emoji ORDER BY id`)).rows;
const byName = (map: Record<string, Record<string, unknown>>, name: string) => Object.values(map).find((e) => e.name === name && !e.deactivated);

/** Runs a refused request and checks that nothing was written and no event went out. */
async function expectRefused(request: () => PromiseLike<import('supertest').Response>, status: number, msg: string, code = 'BAD_REQUEST') {
  const before = { rows: await emojiRows(), images: storedImages(realmId) };
  const events = await EventClient.register(t, t.owner, { event_types: ['realm_emoji'] });
  expectError(await request(), status, msg, code);
  expect({ rows: await emojiRows(), images: storedImages(realmId) }).toEqual(before);
  expect(await events.drain()).toEqual([]);
}

describe('POST /realm/emoji/{emoji_name}', () => {
  it('adds the emoji, stores and serves its image, tells everyone the whole map, and register agrees with GET', async () => {
    const queues = [await EventClient.register(t, t.owner), await EventClient.register(t, guest, { event_types: ['realm_emoji'] })];
    const res = await upload(member, 'party parrot');
    expect(res.body).toEqual({ result: 'success', msg: '' });

    const emoji = await listEmoji();
    const added = byName(emoji, 'party_parrot')!;
    expect(added).toEqual({
      id: expect.stringMatching(/^\d+$/),
      name: 'party_parrot',
      source_url: expect.stringMatching(new RegExp(`^/user_avatars/${realmId}/emoji/images/[0-9a-f]{8}\\.png$`)),
      deactivated: false,
      author_id: member.id,
      still_url: null,
    });
    for (const q of queues) {
      const [event] = await q.ofType('realm_emoji');
      expect(event).toEqual({ id: expect.any(Number), type: 'realm_emoji', op: 'update', realm_emoji: emoji });
    }
    const registered = await t.post('register', { as: guest, form: { fetch_event_types: ['realm_emoji'] } });
    expect(registered.body.realm_emoji).toEqual(emoji);

    const image = await t.http.get(added.source_url as string).buffer(true);
    expect(image.status).toBe(200);
    expect(image.headers['content-type']).toBe('image/png');
    expect(image.headers['content-security-policy']).toMatch(/^default-src 'none';.*\bsandbox\b/);
    expect(image.headers['x-content-type-options']).toBe('nosniff');
    expect(Buffer.compare(image.body as Buffer, PNG)).toBe(0);
    expect((await t.http.get(`/user_avatars/${realmId}/emoji/images/00000000.png`)).status).toBe(404);

    // Another organization neither sees it nor can remove it.
    expect(byName(await listEmoji(otherOwner), 'party_parrot')).toBeUndefined();
    await expectRefused(() => t.delete('realm/emoji/party_parrot', { as: otherOwner }), 404, "Emoji 'party_parrot' does not exist");
  });

  it('accepts a GIF under any part name, and lets administrators override a default emoji name', async () => {
    expectSuccess(await upload(member, 'dancing', [{ field: 'file', body: GIF, name: 'd.gif' }]));
    expect(byName(await listEmoji(), 'dancing')!.source_url).toMatch(/\.gif$/);
    await expectRefused(() => upload(member, 'smile'), 400, 'Only administrators can override default emoji.');
    expectSuccess(await upload(admin, 'smile'));
  });

  it.each([
    ['My_Emoji', 'Emoji names must contain only lowercase English letters, digits, spaces, dashes, and underscores.'],
    ['my.emoji', 'Emoji names must contain only lowercase English letters, digits, spaces, dashes, and underscores.'],
    ['my/emoji/with/slash', 'Emoji names must contain only lowercase English letters, digits, spaces, dashes, and underscores.'],
    ['tick_', 'Emoji names must end with either a letter or digit.'],
    ['%20', 'Emoji name is missing'],
  ])('refuses the name %j', async (name, msg) => {
    await expectRefused(() => upload(member, name), 400, msg);
  });

  it('refuses guests, bots and users outside can_add_custom_emoji_group', async () => {
    await expectRefused(() => upload(guest, 'by_guest'), 400, 'Not allowed for guest users');
    await expectRefused(() => upload(bot, 'by_bot'), 400, 'This endpoint does not accept bot requests.');
    expectSuccess(await t.patch('realm', { as: admin, form: { can_add_custom_emoji_group: { new: groups['role:administrators'] } } }));
    try {
      await expectRefused(() => upload(member, 'not_allowed'), 400, 'Insufficient permission');
      expectSuccess(await upload(admin, 'allowed_for_admins'));
    } finally {
      expectSuccess(await t.patch('realm', { as: admin, form: { can_add_custom_emoji_group: { new: groups['role:members'] } } }));
    }
  });

  it('refuses a taken name, zero or two files, an oversized file, and files that are not images', async () => {
    expectSuccess(await upload(member, 'taken'));
    await expectRefused(() => upload(other, 'taken'), 400, 'A custom emoji with this name already exists.');
    await expectRefused(() => upload(member, 'no_file', []), 400, 'You must upload exactly one file.');
    await expectRefused(
      () => upload(member, 'two_files', [{ body: PNG, name: 'a.png' }, { body: PNG, name: 'b.png' }]),
      400,
      'You must upload exactly one file.',
    );
    const big = Buffer.concat([PNG, Buffer.alloc(5 * 1024 * 1024)]);
    await expectRefused(() => upload(member, 'too_big', [{ body: big, name: 'big.png' }]), 400, 'Uploaded file is larger than the allowed limit of 5 MiB');
    await expectRefused(() => upload(member, 'text', [{ body: Buffer.from('hello'), name: 'a.txt' }]), 400, 'Invalid image format');
    await expectRefused(() => upload(member, 'tiff', [{ body: PNG, name: 'a.tif', type: 'image/tiff' }]), 400, 'Invalid image format');
    await expectRefused(
      () => upload(member, 'fake_png', [{ body: Buffer.from('not really a png'), name: 'a.png' }]),
      400,
      'Could not decode image; did you upload an image file?',
    );
  });
});

describe('DELETE /realm/emoji/{emoji_name}', () => {
  it('lets the author deactivate it, with the whole map to everyone; the name can then be reused', async () => {
    expectSuccess(await upload(member, 'short_lived'));
    const id = byName(await listEmoji(), 'short_lived')!.id as string;
    const events = await EventClient.register(t, other, { event_types: ['realm_emoji'] });
    expect((await t.delete('realm/emoji/short_lived', { as: member })).body).toEqual({ result: 'success', msg: '' });
    const emoji = await listEmoji();
    expect(emoji[id]).toMatchObject({ name: 'short_lived', deactivated: true, author_id: member.id });
    const [event] = await events.ofType('realm_emoji');
    expect(event).toEqual({ id: expect.any(Number), type: 'realm_emoji', op: 'update', realm_emoji: emoji });
    expectSuccess(await upload(other, 'short_lived'));
    expect(Object.values(await listEmoji()).filter((e) => e.name === 'short_lived')).toHaveLength(2);
  });

  it('lets administrators remove anyone’s, refuses other members, unknown and deactivated names', async () => {
    expectSuccess(await upload(member, 'members_own'));
    await expectRefused(() => t.delete('realm/emoji/members_own', { as: other }), 400, 'Must be an organization administrator or emoji author');
    await expectRefused(() => t.delete('realm/emoji/members_own', { as: guest }), 400, 'Must be an organization administrator or emoji author');
    expectSuccess(await t.delete('realm/emoji/members_own', { as: admin }));
    await expectRefused(() => t.delete('realm/emoji/members_own', { as: admin }), 404, "Emoji 'members_own' does not exist");
    await expectRefused(() => t.delete('realm/emoji/nothing_here', { as: admin }), 404, "Emoji 'nothing_here' does not exist");
  });
});
