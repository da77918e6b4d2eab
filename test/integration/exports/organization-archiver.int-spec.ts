import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { ARCHIVE_FORMAT, ARCHIVE_TABLES, ARCHIVE_VERSION, type ExportType } from '@app/domain/exports';
import * as tar from 'tar';
import { DataSource } from 'typeorm';
import { OrganizationArchiver } from '../../../src/exports/application/realm-exports.ports.js';
import { TypeOrmOrganizationArchiver } from '../../../src/exports/persistence/typeorm-organization-archiver.js';
import { ServerConfig } from '../../../src/shared/config/server-config.js';
import { createChannels } from '../../support/channels.js';
import { sendDirect, sendToChannel } from '../../support/messages.js';
import { type Account, TestApp } from '../../support/test-app.js';

type Row = Record<string, unknown>;

let t: TestApp;
let ds: DataSource;
let config: ServerConfig;
let archiver: OrganizationArchiver;
let work: string;
let realmId: number;
let otherOwner: Account;
/** Consents to private data exports, and hides their address from everyone. */
let consenting: Account;
/** Hides their address, without consent. */
let hidden: Account;
const m = { public: 0, private: 0, consentingDirect: 0, hiddenDirect: 0, other: 0 };
const files = { linked: '', unlinked: '' };

const now = new Date('2025-06-07T08:09:10Z');
const realmOf = async (userId: number): Promise<number> => (await ds.query(`SELECT realm_id FROM users WHERE id = $1`, [userId]))[0].realm_id;

async function stored(path: string, content: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, content);
}

async function attachment(pathId: string, messageId: number | null): Promise<void> {
  const [row] = await ds.query(
    `INSERT INTO attachments (realm_id, owner_id, path_id, name, size, content_type, create_time) VALUES ($1, $2, $3, 'f.txt', 4, 'text/plain', now()) RETURNING id`,
    [realmId, hidden.id, pathId],
  );
  if (messageId !== null) await ds.query(`INSERT INTO attachment_messages (attachment_id, message_id) VALUES ($1, $2)`, [row.id, messageId]);
}

beforeAll(async () => {
  t = await TestApp.start();
  ds = t.app.get(DataSource);
  config = t.app.get(ServerConfig);
  archiver = t.app.get(OrganizationArchiver);
  work = await mkdtemp(join(tmpdir(), 'svc-archiver-'));
  otherOwner = await t.createOrganization('other');
  realmId = await realmOf(t.owner.id);
  consenting = await t.createUser();
  hidden = await t.createUser();
  await ds.query(`UPDATE users SET allow_private_data_export = false, email_address_visibility = 1 WHERE realm_id = $1`, [realmId]);
  await ds.query(`UPDATE users SET allow_private_data_export = true, email_address_visibility = 4 WHERE id = $1`, [consenting.id]);
  await ds.query(`UPDATE users SET allow_private_data_export = false, email_address_visibility = 4 WHERE id = $1`, [hidden.id]);
  const principals = [t.owner.id, consenting.id, hidden.id];
  const { lobby } = await createChannels(t, ['lobby'], { form: { principals } });
  const { hush } = await createChannels(t, ['hush'], { form: { invite_only: true, principals } });
  m.public = await sendToChannel(t, hidden, lobby, 'a', 'public words');
  m.private = await sendToChannel(t, hidden, hush, 'a', 'private words');
  m.consentingDirect = await sendDirect(t, consenting, [t.owner.id], 'consenting words');
  m.hiddenDirect = await sendDirect(t, hidden, [t.owner.id], 'hidden words');
  m.other = await sendToChannel(t, otherOwner, 'general', 'a', 'other organization');
  const reacted = await t.post(`messages/${m.public}/reactions`, { form: { emoji_name: 'smile' } });
  if (reacted.status !== 200) throw new Error(`reaction failed: ${JSON.stringify(reacted.body)}`);
  files.linked = `${realmId}/aa/linked.txt`;
  files.unlinked = `${realmId}/bb/missing.txt`;
  await stored(join(config.uploadsDir, files.linked), 'data');
  await attachment(files.linked, m.public);
  await attachment(files.unlinked, null); // no file on disk
  await ds.query(`INSERT INTO realm_emoji (realm_id, name, file_name, is_animated) VALUES ($1, 'party', 'party.gif', true), ($1, 'evil', '.hidden', false)`, [realmId]);
  const images = join(config.uploadsDir, 'avatars', String(realmId), 'emoji', 'images');
  await stored(join(images, 'party.gif'), 'GIF');
  await stored(join(images, 'still', 'party.png'), 'PNG');
  await stored(join(images, '.hidden'), 'no');
}, 120_000);
afterAll(async () => {
  await t?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

/** Writes an archive of the root organization and unpacks it. */
async function archive(type: ExportType) {
  const target = join(work, `${type}.tar.gz`);
  const result = await archiver.write({ realmId, type, target, now });
  const dir = join(work, type);
  await mkdir(dir);
  await tar.x({ file: target, cwd: dir });
  const table = async (name: string): Promise<Row[]> => JSON.parse(await readFile(join(dir, `${name}.json`), 'utf8'));
  const ids = async (name: string) => (await table(name)).map((r) => r.id);
  return { result, target, dir, table, ids };
}

const asJson = (row: Row): Row => JSON.parse(JSON.stringify(row));
async function userRow(id: number): Promise<Row> {
  const [{ password_hash: _hash, api_key: _key, ...user }] = await ds.query(`SELECT * FROM users WHERE id = $1`, [id]);
  return asJson(user);
}

describe('TypeOrmOrganizationArchiver', () => {
  it('is the archiver the export worker uses', () => {
    expect(archiver).toBeInstanceOf(TypeOrmOrganizationArchiver);
  });

  it('writes a public archive: manifest, whole tables of the organization, public messages and what hangs on them, their files', async () => {
    const a = await archive('public');
    const [realm] = await ds.query(`SELECT * FROM realms WHERE id = $1`, [realmId]);
    const manifest = JSON.parse(await readFile(join(a.dir, 'manifest.json'), 'utf8'));
    expect(manifest).toEqual({
      format: ARCHIVE_FORMAT,
      version: ARCHIVE_VERSION,
      exported_at: now.toISOString(),
      export_type: 'public',
      organization: { id: realmId, string_id: '', name: realm.name },
      counts: a.result.counts,
    });
    expect(Object.keys(a.result.counts).sort()).toEqual([...ARCHIVE_TABLES].sort());
    for (const table of ARCHIVE_TABLES) expect((await a.table(table)).length).toBe(a.result.counts[table]);
    expect(a.result.size).toBe((await stat(a.target)).size);
    expect(await a.table('realm')).toEqual([asJson(realm)]);

    const users = await a.table('users');
    expect(users.map((u) => u.id)).toEqual((await ds.query(`SELECT id FROM users WHERE realm_id = $1 ORDER BY id`, [realmId])).map((r: Row) => r.id));
    expect(users.find((u) => u.id === t.owner.id)).toEqual(await userRow(t.owner.id));
    // A hidden address becomes a fake one (a public export holds nobody's private data).
    for (const u of [hidden, consenting]) {
      expect(users.find((r) => r.id === u.id)).toEqual({ ...(await userRow(u.id)), delivery_email: `user${u.id}@${config.fakeEmailDomain}` });
    }
    expect(await a.ids('channels')).toEqual((await ds.query(`SELECT id FROM channels WHERE realm_id = $1 ORDER BY id`, [realmId])).map((r: Row) => r.id));

    const messages = await a.ids('messages');
    expect(messages).toContain(m.public);
    for (const id of [m.private, m.consentingDirect, m.hiddenDirect, m.other]) expect(messages).not.toContain(id);
    expect(await a.table('user_messages')).toEqual([]);
    expect((await a.table('reactions')).map((r) => [r.message_id, r.emoji_name])).toEqual([[m.public, 'smile']]);
    expect((await a.table('attachments')).map((r) => r.path_id)).toEqual([files.linked]);
    expect(await readFile(join(a.dir, 'uploads', files.linked), 'utf8')).toBe('data');
    expect((await a.table('attachment_messages')).map((r) => r.message_id)).toEqual([m.public]);
    expect((await readdir(join(a.dir, 'emoji'), { recursive: true })).sort()).toEqual(['party.gif', 'still', 'still/party.png']);
    // The working folder is gone.
    expect((await readdir(config.uploadTempDir)).filter((f) => f.startsWith('export-'))).toEqual([]);
  });

  it('adds, with consent, the messages and flags of consenting users, keeping their address', async () => {
    const a = await archive('full_with_consent');
    const messages = await a.ids('messages');
    for (const id of [m.public, m.private, m.consentingDirect]) expect(messages).toContain(id);
    for (const id of [m.hiddenDirect, m.other]) expect(messages).not.toContain(id);
    const direct = (await a.table('messages')).find((r) => r.id === m.consentingDirect);
    expect(direct?.direct_user_ids).toEqual([t.owner.id, consenting.id].sort((x, y) => x - y));
    expect((await a.table('messages')).find((r) => r.id === m.public)?.direct_user_ids).toBeNull();
    const userMessages = await a.table('user_messages');
    expect(userMessages.length).toBeGreaterThan(0);
    expect(new Set(userMessages.map((r) => r.user_id))).toEqual(new Set([consenting.id]));
    const users = await a.table('users');
    expect(users.find((u) => u.id === consenting.id)).toEqual(await userRow(consenting.id));
    expect(users.find((u) => u.id === hidden.id)?.delivery_email).toBe(`user${hidden.id}@${config.fakeEmailDomain}`);
  });

  it('holds everything of the organization without consent, leaving out files missing on disk', async () => {
    const a = await archive('full_without_consent');
    const all = (await ds.query(`SELECT id FROM messages WHERE realm_id = $1 ORDER BY id`, [realmId])).map((r: Row) => r.id);
    expect(await a.ids('messages')).toEqual(all);
    const flags = await ds.query(`SELECT um.* FROM user_messages um JOIN messages m ON m.id = um.message_id WHERE m.realm_id = $1`, [realmId]);
    expect((await a.table('user_messages')).length).toBe(flags.length);
    expect((await a.table('users')).find((u) => u.id === hidden.id)).toEqual(await userRow(hidden.id));
    expect((await a.table('attachments')).map((r) => r.path_id)).toEqual([files.linked, files.unlinked]);
    expect((await readdir(join(a.dir, 'uploads'), { recursive: true })).filter((f) => f.endsWith('.txt'))).toEqual([files.linked]);
    expect((await a.ids('users')).includes(otherOwner.id)).toBe(false);
  });
});
