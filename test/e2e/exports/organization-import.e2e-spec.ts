import { mkdtemp, readFile, rm, truncate, writeFile, copyFile, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Test, type TestingModule } from '@nestjs/testing';
import { pino } from 'pino';
import * as tar from 'tar';
import { AdminModule } from '../../../src/admin/admin.module.js';
import { OrganizationArchiveImport } from '../../../src/admin/application/organization-archive-import.js';
import { AppModule } from '../../../src/app/app.module.js';
import { ServerConfig } from '../../../src/shared/config/server-config.js';
import { createChannels } from '../../support/channels.js';
import { sendDirect, sendToChannel } from '../../support/messages.js';
import { type Account, OWNER_EMAIL, OWNER_PASSWORD, TestApp } from '../../support/test-app.js';

/**
 * `svc-admin import-organization <archive>` (issue 25, item 4), driven in-process: an
 * organization exported through POST /export/realm is imported under another subdomain, and
 * GET /users and GET /messages answer there what they answer in the original. Then the
 * refusals: a subdomain in use, a corrupt archive, an archive of a newer format, each leaving
 * nothing behind. (test/e2e/admin/admin-cli-archive.e2e-spec.ts runs the command itself.)
 */
let t: TestApp;
let admin: TestingModule;
let importer: OrganizationArchiveImport;
let member: Account;
let guest: Account;
let work: string;
let archive: string;
const uploads = () => join(tmpdir(), `svc-test-uploads-${process.pid}`);

async function finished(id: number): Promise<{ export_url: string | null; failed_timestamp: number | null }> {
  for (let i = 0; i < 300; i++) {
    const e = ((await t.get('export/realm')).body.exports as { id: number; pending: boolean }[]).find((x) => x.id === id);
    if (e !== undefined && !e.pending) return e as never;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('export still pending');
}

/** What GET /users shows, without the ids (which an import renumbers) and with the bots' domain of the root organization. */
const users = async (as: Account) =>
  ((await t.get('users', { as })).body.members as Record<string, unknown>[])
    .map((u) => ({ email: String(u.email).replace('@copy.chat.example.com', '@chat.example.com'), full_name: u.full_name, role: u.role, is_bot: u.is_bot, is_active: u.is_active, bot_type: u.bot_type ?? null, timezone: u.timezone, date_joined: u.date_joined }))
    .sort((a, b) => a.email.localeCompare(b.email));

/** What GET /messages shows (home view and one channel), ids replaced by what they name. */
async function messages(as: Account, narrow: unknown[] = []) {
  const res = await t.get('messages', { as, query: { anchor: 'oldest', num_before: 0, num_after: 1000, narrow, apply_markdown: false } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const emailOf = new Map(((await t.get('users', { as })).body.members as { user_id: number; email: string }[]).map((u) => [u.user_id, u.email]));
  return (res.body.messages as Record<string, unknown>[]).map((m) => ({
    content: m.content,
    subject: m.subject,
    sender: String(m.sender_email).replace('@copy.chat.example.com', '@chat.example.com'),
    timestamp: m.timestamp,
    type: m.type,
    to: typeof m.display_recipient === 'string' ? m.display_recipient : (m.display_recipient as { email: string }[]).map((r) => r.email.replace('@copy.chat.example.com', '@chat.example.com')).sort(),
    flags: [...(m.flags as string[])].sort(),
    reactions: (m.reactions as { emoji_name: string; user_id: number }[]).map((r) => `${r.emoji_name}:${emailOf.get(r.user_id)}`).sort(),
  }));
}

beforeAll(async () => {
  t = await TestApp.start({ EXPORT_POLL_INTERVAL_MS: '200' });
  member = await t.createUser({ fullName: 'Mia Member' });
  guest = await t.createUser({ role: 600, fullName: 'Gus Guest' });
  await t.createBot(member, 'helper');
  work = await mkdtemp(join(tmpdir(), 'svc-import-'));
  const ids = await createChannels(t, ['lobby', 'hush'], { form: { principals: [t.owner.id, member.id, guest.id] } });
  await t.patch(`streams/${ids.hush}`, { form: { is_private: true } });
  const first = await sendToChannel(t, member, ids.lobby, 'plans', 'hello **world**');
  await sendToChannel(t, t.owner, ids.lobby, 'plans', 'a reply');
  await sendToChannel(t, guest, ids.hush, 'quiet', 'private words');
  await sendDirect(t, member, [t.owner.id], 'a direct word');
  await sendDirect(t, member, [t.owner.id, guest.id], 'a group word');
  await t.post(`messages/${first}/reactions`, { as: t.owner, form: { emoji_name: 'smile' } });
  await t.post(`messages/${first}/reactions`, { as: guest, form: { emoji_name: 'tada' } });
  await t.post('messages/flags', { form: { messages: [first], op: 'add', flag: 'starred' } });
  await t.post('user_groups/create', { form: { name: 'crew', description: 'the crew', members: [member.id, guest.id] } });
  for (const as of [t.owner, member, guest]) await t.patch('settings', { as, form: { allow_private_data_export: true } });
  const res = await t.post('export/realm', { form: { export_type: 'full_with_consent' } });
  const done = await finished(res.body.id);
  expect(done.failed_timestamp).toBeNull();
  const [{ export_path: path }] = await t.sql(`SELECT export_path FROM realm_exports WHERE id = $1`, [res.body.id]);
  archive = join(work, 'org.tar.gz');
  await copyFile(join(uploads(), path), archive);

  const config = ServerConfig.fromEnv({
    DATABASE_URL: t.databaseUrl,
    OWNER_EMAIL,
    OWNER_PASSWORD,
    EXTERNAL_URL: 'http://chat.example.com',
    UPLOADS_DIR: uploads(),
    REMINDER_POLL_INTERVAL_MS: '0',
    EXPORT_POLL_INTERVAL_MS: '0',
    EMAIL_POLL_INTERVAL_MS: '0',
    PASSWORD_HASH_MEMORY_KIB: '1024',
  });
  admin = await Test.createTestingModule({ imports: [AppModule.register(config, pino({ level: 'silent' })), AdminModule] }).compile();
  await admin.init();
  importer = admin.get(OrganizationArchiveImport);
}, 90_000);
afterAll(async () => {
  await admin?.close();
  await t?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

describe('import-organization <archive>', () => {
  it('imports an export into a new organization whose users and messages answer as the original', async () => {
    const r = await importer.import(archive, { subdomain: 'copy' });
    expect(r).toMatchObject({ subdomain: 'copy', url: 'http://copy.chat.example.com', ownerEmail: OWNER_EMAIL, skipped: 0 });
    expect(r.imported).toMatchObject({ messages: expect.any(Number), reactions: 2, channels: expect.any(Number), user_messages: expect.any(Number) });
    const host = 'copy.chat.example.com';
    const owner = await t.login(OWNER_EMAIL, r.ownerPassword, host);
    expect(await users(owner)).toEqual(await users(t.owner));
    expect(await messages(owner)).toEqual(await messages(t.owner));
    expect(await messages(owner, [{ operator: 'channel', operand: 'lobby' }])).toEqual(await messages(t.owner, [{ operator: 'channel', operand: 'lobby' }]));
    // Another imported user (no password yet): through the API key the import gave them.
    const [copy] = await t.sql(`SELECT u.id, u.api_key FROM users u JOIN realms r ON r.id = u.realm_id WHERE r.string_id = 'copy' AND u.delivery_email = $1`, [guest.email]);
    const guestCopy: Account = { id: copy.id, email: guest.email, apiKey: copy.api_key, host };
    expect(await messages(guestCopy)).toEqual(await messages(guest));
    const groups = (await t.get('user_groups', { as: owner })).body.user_groups as { name: string; members: number[] }[];
    expect(groups.find((g) => g.name === 'crew')?.members.length).toBe(2);
    // Renumbered: nothing of the copy has an id of the original's rows.
    const [{ n }] = await t.sql(
      `SELECT count(*)::int AS n FROM messages a JOIN messages b ON a.id = b.id JOIN realms r ON r.id = a.realm_id WHERE r.string_id = 'copy' AND b.realm_id <> a.realm_id`,
    );
    expect(n).toBe(0);
  }, 60_000);

  it('refuses a subdomain in use, a corrupt archive and one of a newer format, leaving nothing behind', async () => {
    const before = await t.sql(`SELECT count(*)::int AS n FROM realms`);
    await expect(importer.import(archive, { subdomain: 'copy' })).rejects.toThrow("Subdomain 'copy' is already in use");
    const notTar = join(work, 'junk.tar.gz');
    await writeFile(notTar, 'this is not an archive at all');
    await expect(importer.import(notTar, { subdomain: 'junk' })).rejects.toThrow('Not an organization export: it is not a readable .tar.gz archive');
    const cut = join(work, 'cut.tar.gz');
    await copyFile(archive, cut);
    await truncate(cut, Math.floor((await stat(archive)).size / 2));
    await expect(importer.import(cut, { subdomain: 'cut' })).rejects.toThrow('Not an organization export');

    const dir = await mkdtemp(join(work, 'newer-'));
    await tar.x({ file: archive, cwd: dir });
    const manifest = JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8'));
    await writeFile(join(dir, 'manifest.json'), JSON.stringify({ ...manifest, version: 2 }));
    const newer = join(work, 'newer.tar.gz');
    await tar.c({ gzip: true, file: newer, cwd: dir }, ['manifest.json', 'users.json']);
    await expect(importer.import(newer, { subdomain: 'newer' })).rejects.toThrow('The export is of format version 2, newer than this server reads (1)');

    // A broken table midway: the transaction leaves no organization (and no file) behind.
    await writeFile(join(dir, 'manifest.json'), JSON.stringify(manifest));
    await writeFile(join(dir, 'messages.json'), `${(await readFile(join(dir, 'messages.json'), 'utf8')).slice(0, 200)}\n{ broken\n]\n`);
    const broken = join(work, 'broken.tar.gz');
    await tar.c({ gzip: true, file: broken, cwd: dir }, ['manifest.json', 'realm.json', 'users.json', 'channels.json', 'messages.json']);
    await expect(importer.import(broken, { subdomain: 'broken' })).rejects.toThrow('Not an organization export: messages.json holds a line that is not JSON');
    expect(await t.sql(`SELECT count(*)::int AS n FROM realms`)).toEqual(before);
  }, 60_000);
});
