import { existsSync } from 'node:fs';
import { mkdir, readdir, rename, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import pg from 'pg';
import { EventClient } from '../../support/events.js';
import { type Account, expectError, expectSuccess, TestApp } from '../../support/test-app.js';

// Issue 13, finding 4: no temporary file outlives its request, whatever the outcome, and the
// organization's upload quota (Zulip's custom_upload_quota_gb) with Zulip's error.

// Multipart files are written here; TMPDIR too, for code that would write to the system's.
const TEMP_DIR = vi.hoisted(() => {
  const dir = `/tmp/svc-test-upload-temp-${process.pid}`;
  process.env.TMPDIR = dir;
  return dir;
});
const UPLOADS_DIR = `/tmp/svc-test-uploads-${process.pid}`;

const MiB = 1024 * 1024;
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

let t: TestApp;
let alice: Account;
let guest: Account;
let db: pg.Client;
let realmId: number;
beforeAll(async () => {
  await mkdir(TEMP_DIR, { recursive: true });
  t = await TestApp.start({ UPLOAD_TEMP_DIR: TEMP_DIR, UPLOADS_DIR, MAX_FILE_UPLOAD_SIZE_MIB: '1' });
  alice = await t.createUser({ fullName: 'Alice' });
  guest = await t.createUser({ fullName: 'Guest', role: 600 });
  db = new pg.Client({ connectionString: t.databaseUrl });
  await db.connect();
  realmId = (await db.query(`SELECT realm_id FROM users WHERE id = $1`, [alice.id])).rows[0].realm_id;
});
afterAll(async () => {
  await db.end();
  await t.close();
  await rm(TEMP_DIR, { recursive: true, force: true });
});

const tempFiles = async () => (existsSync(TEMP_DIR) ? await readdir(TEMP_DIR) : []);
const userUpload = (as: Account | null, files: [string, Buffer][]) => {
  let req = t.http.post('/api/v1/user_uploads');
  if (as) req = req.auth(as.email, as.apiKey);
  for (const [name, body] of files) req = req.attach(name.replace(/\W/g, ''), body, name);
  return req;
};
const emojiUpload = (as: Account, name: string, files: [string, Buffer][]) => {
  let req = t.http.post(`/api/v1/realm/emoji/${name}`).auth(as.email, as.apiKey);
  for (const [file, body] of files) req = req.attach(file.replace(/\W/g, ''), body, file);
  return req;
};
const attachmentCount = async () => (await db.query(`SELECT count(*)::int AS n FROM attachments`)).rows[0].n as number;

describe('temporary files', () => {
  it('are all gone after every kind of refusal, and after success', async () => {
    const outcomes: Record<string, number> = {};
    const check = async (kind: string, request: () => PromiseLike<{ status: number }>, status: number) => {
      const res = await request();
      outcomes[kind] = res.status;
      expect({ kind, status: res.status, temp: await tempFiles() }).toEqual({ kind, status, temp: [] });
    };

    await check('success', () => userUpload(alice, [['a.txt', Buffer.from('hello')]]), 200);
    await check('too large', () => userUpload(alice, [['big.bin', Buffer.alloc(MiB + 1)]]), 400);
    await check('two files', () => userUpload(alice, [['a.txt', Buffer.from('one')], ['b.txt', Buffer.from('two')]]), 400);
    await check('three files, the last too large', () => userUpload(alice, [['a.txt', Buffer.from('1')], ['b.txt', Buffer.from('2')], ['c.bin', Buffer.alloc(MiB + 1)]]), 400);
    await check('unauthenticated', () => userUpload(null, [['a.txt', Buffer.from('hello')]]), 401);
    await check('emoji: bad name', () => emojiUpload(alice, 'bad%20name!', [['e.png', PNG]]), 400);
    await check('emoji: two files', () => emojiUpload(alice, 'twins', [['a.png', PNG], ['b.png', PNG]]), 400);
    await check('emoji: too large', () => emojiUpload(alice, 'huge', [['e.png', Buffer.concat([PNG, Buffer.alloc(5 * MiB)])]]), 400);
    await check('emoji: guest', () => emojiUpload(guest, 'guest', [['e.png', PNG]]), 400);
    await check('emoji: success', () => emojiUpload(alice, 'fine', [['e.png', PNG]]), 200);

    await t.sql(`UPDATE realms SET custom_upload_quota_gb = 1 WHERE id = $1`, [realmId]);
    await db.query(`UPDATE attachments SET size = $1 WHERE realm_id = $2`, [(1 << 30) - 1, realmId]);
    await check('over the quota', () => userUpload(alice, [['a.txt', Buffer.from('hello')]]), 400);
    await t.sql(`UPDATE realms SET custom_upload_quota_gb = NULL WHERE id = $1`, [realmId]);

    // The storage fails (its realm folder is a file): an unexpected error, and still no leftovers.
    const realmDir = join(UPLOADS_DIR, String(realmId));
    await rename(realmDir, `${realmDir}.away`);
    await writeFile(realmDir, 'not a folder');
    try {
      await check('storage failure', () => userUpload(alice, [['a.txt', Buffer.from('hello')]]), 500);
    } finally {
      await rm(realmDir);
      await rename(`${realmDir}.away`, realmDir);
    }
    expect(Object.keys(outcomes)).toHaveLength(12);
  });

  it('are gone when the client goes away in the middle of a file', async () => {
    const server = t.app.getHttpServer() as http.Server;
    if (!server.listening) await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const boundary = 'svc-test-boundary';
    const req = http.request({
      host: '127.0.0.1',
      port,
      method: 'POST',
      path: '/api/v1/user_uploads',
      headers: {
        'Content-Type': `multipart/form-data; boundary=${boundary}`,
        Authorization: `Basic ${Buffer.from(`${alice.email}:${alice.apiKey}`).toString('base64')}`,
      },
    });
    req.on('error', () => undefined);
    req.write(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="part.bin"\r\n\r\n`);
    req.write(Buffer.alloc(256 * 1024));
    await vi.waitFor(async () => expect(await tempFiles()).toHaveLength(1), { timeout: 10_000, interval: 20 });
    req.destroy();
    await vi.waitFor(async () => expect(await tempFiles()).toEqual([]), { timeout: 10_000, interval: 20 });
  });
});

describe('MAX_FILE_UPLOAD_SIZE_MIB', () => {
  it('is the per-file limit, reported by register and in the error', async () => {
    const reg = await t.post('register', { as: alice, form: { fetch_event_types: ['realm'] } });
    expectSuccess(reg, { max_file_upload_size_mib: 1 });
    expectSuccess(await userUpload(alice, [['exact.bin', Buffer.alloc(MiB)]]));
    expectError(await userUpload(alice, [['big.bin', Buffer.alloc(MiB + 1)]]), 400, 'Uploaded file is larger than the allowed limit of 1 MiB');
  });
});

describe("the organization's upload quota", () => {
  afterEach(async () => {
    await t.sql(`UPDATE realms SET custom_upload_quota_gb = NULL`);
  });

  it('is unlimited by default, and null in register', async () => {
    const reg = await t.post('register', { as: alice, form: { fetch_event_types: ['realm'] } });
    expectSuccess(reg, { realm_upload_quota_mib: null });
  });

  it("refuses an upload that would exceed it with Zulip's error, writing nothing", async () => {
    await t.sql(`UPDATE realms SET custom_upload_quota_gb = 1 WHERE id = $1`, [realmId]);
    const reg = await t.post('register', { as: alice, form: { fetch_event_types: ['realm'] } });
    expectSuccess(reg, { realm_upload_quota_mib: 1024 });

    // Zulip's test_upload: the organization's uploads fill the quota up to 11 bytes.
    await db.query(`UPDATE attachments SET size = 0 WHERE realm_id = $1`, [realmId]);
    expectSuccess(await userUpload(alice, [['seed.txt', Buffer.from('seed')]]));
    await db.query(`UPDATE attachments SET size = $1 WHERE id = (SELECT max(id) FROM attachments WHERE realm_id = $2)`, [(1 << 30) - 11, realmId]);

    expectSuccess(await userUpload(alice, [['dummy_2.txt', Buffer.from('zulip!')]]));
    const before = { rows: await attachmentCount(), stored: await storedFiles() };
    const events = await EventClient.register(t, alice, { event_types: ['attachment'] });
    expectError(
      await userUpload(alice, [['dummy_3.txt', Buffer.from('zulip!')]]),
      400,
      "Upload would exceed your organization's upload quota.",
      'REALM_UPLOAD_QUOTA',
    );
    expect({ rows: await attachmentCount(), stored: await storedFiles() }).toEqual(before);
    expect(await events.drain()).toEqual([]);

    // Without a quota the same upload is accepted.
    await t.sql(`UPDATE realms SET custom_upload_quota_gb = NULL WHERE id = $1`, [realmId]);
    expectSuccess(await userUpload(alice, [['dummy_3.txt', Buffer.from('zulip!')]]));
  });
});

/** Files stored as uploads of the organization (temporary files excluded). */
async function storedFiles(): Promise<string[]> {
  const root = join(UPLOADS_DIR, String(realmId));
  if (!existsSync(root)) return [];
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name)).sort();
}
