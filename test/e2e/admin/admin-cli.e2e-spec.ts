import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import pg from 'pg';
import { type CliSandbox, expectCliOk, openCliSandbox, svcAdmin } from '../../support/admin-cli.js';
import { freePort, type ServerProcess, startServer, stopServer } from '../../support/server-process.js';
import { SmtpTestServer } from '../../support/smtp-test-server.js';

/**
 * `svc-admin` (issue 16, items 2 and 6): every command run as a real process (the built
 * `bin/svc-admin.mjs`) on a real database, checked by its output, exit code and the rows it
 * left; where it matters (passwords, API keys) through the real server too.
 */
const OWNER_PASSWORD = 'owner-Secret-Passphrase-42';
const NEW_PASSWORD = 'a-New-Passphrase-for-Alice-7';
let url: string;
let db: pg.Client;
let dir: string;

const env = () => ({ DATABASE_URL: url, OWNER_PASSWORD, EMAIL_POLL_INTERVAL_MS: '0' });
const run = (args: string[], input?: string, extra: Record<string, string> = {}) => svcAdmin(args, { env: { ...env(), ...extra }, input });
const rows = async (sql: string, params: unknown[] = []) => (await db.query(sql, params)).rows as Record<string, unknown>[];
const ok = expectCliOk;

let sandbox: CliSandbox;
beforeAll(async () => {
  sandbox = await openCliSandbox('admin_cli', 'svc-admin-');
  ({ url, db, dir } = sandbox);
});
afterAll(() => sandbox?.close());

describe('usage', { timeout: 60_000 }, () => {
  const commands = [
    'create-organization', 'list-organizations', 'create-user', 'change-password', 'reset-api-key', 'deactivate-user',
    'reactivate-user', 'change-role', 'send-test-email', 'export-organization', 'import-organization',
  ];

  it('--help lists every command and exits 0 without touching a database', async () => {
    const r = await svcAdmin(['--help'], { env: { DATABASE_URL: 'postgres://127.0.0.1:1/none' } });
    expect(r.code).toBe(0);
    for (const c of commands) expect(r.stdout).toContain(c);
  });

  it.each(commands)('%s --help describes the command and exits 0', async (c) => {
    const r = await svcAdmin([c, '--help'], { env: { DATABASE_URL: 'postgres://127.0.0.1:1/none' } });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`Usage: svc-admin ${c}`);
    expect(r.stdout).toContain('--json');
  });

  it('an unknown command, a missing option, an unknown role name or a bad number exit 2 with the usage', async () => {
    const none = { env: { DATABASE_URL: 'postgres://127.0.0.1:1/none' } };
    const unknown = await svcAdmin(['make-coffee'], none);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("unknown command 'make-coffee'");
    const missing = await svcAdmin(['create-organization', '--name', 'X'], none);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("required option '--subdomain <subdomain>' not specified");
    const role = await svcAdmin(['change-role', 'a@example.com', 'king'], none);
    expect(role.code).toBe(2);
    expect(role.stderr).toContain("command-argument value 'king' is invalid for argument 'role'");
    const batch = await svcAdmin(['export-organization', '--batch-size', '0'], none);
    expect(batch.code).toBe(2);
  });

  it('a password is never taken from the command line', async () => {
    const r = await svcAdmin(['change-password', 'owner@example.com', '--password', 'x'], { env: { DATABASE_URL: 'postgres://127.0.0.1:1/none' } });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("unknown option '--password'");
  });
});

describe('organizations', { timeout: 60_000 }, () => {
  it('create-organization creates the organization and its owner, and prints the one-time password', async () => {
    const r = await run(['create-organization', '--name', 'Acme', '--subdomain', 'acme', '--owner-email', 'boss@acme.test', '--owner-name', 'The Boss', '--json']);
    expect(r.code).toBe(0);
    // The database had no organization: the root one is created first (OWNER_PASSWORD), as the server's first start does.
    expect(r.stderr).toBe('Created the organization "Demo Organization" with owner owner@example.com (the database had none)\n');
    const org = r.json().organization as Record<string, unknown>;
    expect(org).toMatchObject({ subdomain: 'acme', name: 'Acme', owner_email: 'boss@acme.test', owner_password: expect.stringMatching(/^\S{16,}$/) });
    const [realm] = await rows(`SELECT id, name FROM realms WHERE string_id = 'acme'`);
    expect(realm).toEqual({ id: org.id, name: 'Acme' });
    const users = await rows(`SELECT delivery_email, full_name, role, is_bot FROM users WHERE realm_id = $1 ORDER BY id`, [org.id]);
    expect(users[0]).toEqual({ delivery_email: 'boss@acme.test', full_name: 'The Boss', role: 100, is_bot: false });
    expect(users.filter((u) => u.is_bot)).toHaveLength(2); // the system bots
    expect(await rows(`SELECT string_id FROM realms ORDER BY id`)).toEqual([{ string_id: '' }, { string_id: 'acme' }]);
  });

  it('prints the human form without --json', async () => {
    const r = ok(await run(['create-organization', '--name', 'Beta Org', '--subdomain', 'beta', '--owner-email', 'own@beta.test']));
    expect(r.stdout).toMatch(/^Created the organization "Beta Org" \(id \d+\) at http:\/\/\S+\nOwner: own@beta\.test\nOwner password \(shown only once\): \S+\n$/);
  });

  it.each([
    [['--subdomain', 'acme', '--owner-email', 'x@acme.test'], "Subdomain 'acme' is already in use"],
    [['--subdomain', 'Bad_Sub', '--owner-email', 'x@acme.test'], 'Subdomains can only have lowercase letters'],
    [['--subdomain', 'www', '--owner-email', 'x@acme.test'], "Subdomain 'www' is reserved"],
    [['--subdomain', 'gamma', '--owner-email', 'not-an-email'], 'Enter a valid email address.'],
  ])('refuses %j with exit 1 and changes nothing', async (args, msg) => {
    const before = await rows(`SELECT count(*)::int AS n FROM realms`);
    const r = await run(['create-organization', '--name', 'Other', ...args, '--json']);
    expect(r.code).toBe(1);
    expect(r.json()).toMatchObject({ result: 'error', msg: expect.stringContaining(msg) });
    expect(r.stderr).toContain(msg);
    expect(await rows(`SELECT count(*)::int AS n FROM realms`)).toEqual(before);
  });

  it('list-organizations lists them all', async () => {
    const r = ok(await run(['list-organizations', '--json']));
    const orgs = r.json().organizations as Record<string, unknown>[];
    expect(orgs.map((o) => [o.subdomain, o.name, o.active_users])).toEqual([
      ['', 'Demo Organization', 1],
      ['acme', 'Acme', 1],
      ['beta', 'Beta Org', 1],
    ]);
    const text = ok(await run(['list-organizations']));
    expect(text.stdout.split('\n').filter(Boolean)).toHaveLength(3);
    expect(text.stdout).toContain('(root)\tDemo Organization');
  });
});

describe('users', { timeout: 60_000 }, () => {
  const role = async (email: string) => (await rows(`SELECT role, is_active FROM users WHERE delivery_email = $1`, [email]))[0];

  it('create-user creates a member of the organization with a one-time password', async () => {
    const r = ok(await run(['create-user', 'alice@acme.test', '--full-name', 'Alice', '--org', 'acme', '--json']));
    expect(r.json()).toMatchObject({ result: 'success', user_id: expect.any(Number), email: 'alice@acme.test', password: expect.any(String) });
    const [alice] = await rows(`SELECT u.role, u.full_name, r.string_id FROM users u JOIN realms r ON r.id = u.realm_id WHERE u.delivery_email = 'alice@acme.test'`);
    expect(alice).toEqual({ role: 400, full_name: 'Alice', string_id: 'acme' });
    const again = await run(['create-user', 'alice@acme.test', '--full-name', 'Alice', '--org', 'acme']);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain("Email 'alice@acme.test' already in use");
  });

  it('create-user --password-stdin takes the password from stdin', async () => {
    const r = ok(await run(['create-user', 'bob@acme.test', '--full-name', 'Bob', '--org', 'acme', '--password-stdin'], `${NEW_PASSWORD}\n`));
    expect(r.stdout).not.toContain('Password');
    expect(r.stdout).toContain('Created the user bob@acme.test');
  });

  it('change-role, deactivate-user and reactivate-user act through the users service', async () => {
    ok(await run(['change-role', 'alice@acme.test', 'moderator', '--org', 'acme']));
    expect(await role('alice@acme.test')).toEqual({ role: 300, is_active: true });
    ok(await run(['deactivate-user', 'alice@acme.test', '--org', 'acme']));
    expect(await role('alice@acme.test')).toEqual({ role: 300, is_active: false });
    const twice = await run(['deactivate-user', 'alice@acme.test', '--org', 'acme', '--json']);
    expect(twice.code).toBe(1);
    expect(twice.json()).toMatchObject({ result: 'error' });
    ok(await run(['reactivate-user', 'alice@acme.test', '--org', 'acme']));
    expect(await role('alice@acme.test')).toEqual({ role: 300, is_active: true });
  });

  it('the last owner cannot be demoted (the same rule as the API)', async () => {
    const r = await run(['change-role', 'boss@acme.test', 'member', '--org', 'acme', '--json']);
    expect(r.code).toBe(1);
    expect(r.json()).toMatchObject({ result: 'error', msg: expect.stringContaining('owner') });
    expect(await role('boss@acme.test')).toEqual({ role: 100, is_active: true });
  });

  it.each([
    [['deactivate-user', 'alice@acme.test', '--org', 'nowhere'], "No organization with subdomain 'nowhere'"],
    [['reset-api-key', 'nobody@acme.test', '--org', 'acme'], "No user with email 'nobody@acme.test'"],
    [['change-role', 'not an email', 'member', '--org', 'acme'], 'Enter a valid email address.'],
    [['create-user', 'bad-email', '--full-name', 'X', '--org', 'acme'], 'Bad name or username'],
    [['change-role', 'alice@acme.test', 'member'], "No user with email 'alice@acme.test'"], // alice is in acme, not the root organization
  ])('%j fails with exit 1', async (args, msg) => {
    const r = await run(args);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(msg);
    expect(r.stdout).toBe('');
  });
});

describe('credentials, through the real server', { timeout: 120_000 }, () => {
  let server: ServerProcess;
  const fetchKey = (username: string, password: string) =>
    fetch(`${server.url}/api/v1/fetch_api_key`, { method: 'POST', body: new URLSearchParams({ username, password }) });
  const me = (email: string, key: string) =>
    fetch(`${server.url}/api/v1/users/me`, { headers: { Authorization: `Basic ${Buffer.from(`${email}:${key}`).toString('base64')}` } });

  beforeAll(async () => {
    server = await startServer(await freePort(), { ...env(), LOG_LEVEL: 'warn' });
  });
  afterAll(async () => {
    if (server) await stopServer(server);
  });

  it('change-password sets the password read from stdin; the old one stops working', async () => {
    ok(await run(['create-user', 'carol@example.com', '--full-name', 'Carol']));
    const r = ok(await run(['change-password', 'carol@example.com', '--json'], `${NEW_PASSWORD}\n`));
    expect(r.json()).toEqual({ result: 'success', user_id: expect.any(Number) });
    expect((await fetchKey('carol@example.com', NEW_PASSWORD)).status).toBe(200);
    // The owner who lost the password (OWNER_PASSWORD is read only at the first start):
    ok(await run(['change-password', 'owner@example.com'], `${NEW_PASSWORD}\n`));
    expect((await fetchKey('owner@example.com', OWNER_PASSWORD)).status).toBe(401);
    expect((await fetchKey('owner@example.com', NEW_PASSWORD)).status).toBe(200);
  });

  it('change-password refuses a weak or missing password and keeps the old one', async () => {
    const weak = await run(['change-password', 'carol@example.com'], 'abc\n');
    expect(weak.code).toBe(1);
    expect(weak.stderr).toContain('The password is too weak.');
    const none = await run(['change-password', 'carol@example.com'], '');
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('no password on stdin');
    expect((await fetchKey('carol@example.com', NEW_PASSWORD)).status).toBe(200);
  });

  it('reset-api-key gives a new key; the old one stops working at once', async () => {
    const old = (await (await fetchKey('carol@example.com', NEW_PASSWORD)).json()) as { api_key: string };
    expect((await me('carol@example.com', old.api_key)).status).toBe(200);
    const r = ok(await run(['reset-api-key', 'carol@example.com', '--json']));
    const { api_key: fresh } = r.json() as { api_key: string };
    expect(fresh).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(fresh).not.toBe(old.api_key);
    expect((await me('carol@example.com', old.api_key)).status).toBe(401);
    expect((await me('carol@example.com', fresh)).status).toBe(200);
  });

  it('a deactivated user cannot log in until reactivated', async () => {
    ok(await run(['deactivate-user', 'carol@example.com']));
    expect(await (await fetchKey('carol@example.com', NEW_PASSWORD)).json()).toMatchObject({ code: 'USER_DEACTIVATED' });
    ok(await run(['reactivate-user', 'carol@example.com']));
    expect((await fetchKey('carol@example.com', NEW_PASSWORD)).status).toBe(200);
  });
});

describe('send-test-email', { timeout: 60_000 }, () => {
  let smtp: SmtpTestServer;
  beforeAll(async () => {
    smtp = await SmtpTestServer.start();
  });
  afterAll(async () => {
    await smtp?.stop();
  });
  const outbox = (to: string) => rows(`SELECT kind, status, last_error FROM email_outbox WHERE to_address = $1 ORDER BY id`, [to]);

  it('without SMTP_URL it queues the email in the outbox and says so', async () => {
    const r = ok(await run(['send-test-email', 'ops@example.com']));
    expect(r.stdout).toContain('Queued the test email to ops@example.com');
    expect(await outbox('ops@example.com')).toEqual([{ kind: 'test_email', status: 'pending', last_error: null }]);
  });

  it('with SMTP_URL it delivers it over SMTP at once', async () => {
    const r = ok(await run(['send-test-email', 'ops2@example.com', '--json'], undefined, { SMTP_URL: smtp.url('mailer', 'secret'), EMAIL_FROM: 'Ops <noreply@example.com>' }));
    expect(r.json()).toMatchObject({ result: 'success', status: 'sent', delivered: true });
    const mail = smtp.received.find((m) => m.to.includes('ops2@example.com'))!;
    expect(mail.headers.subject).toBe('Test email from the svc server');
    expect(mail.text).toContain('email delivery works');
    expect(mail.html).toContain('email delivery works');
    expect(await outbox('ops2@example.com')).toEqual([{ kind: 'test_email', status: 'sent', last_error: null }]);
  });

  it('a refusal (550) fails the command with the server\'s answer', async () => {
    smtp.replies.push({ code: 550, message: 'mailbox unavailable' });
    const r = await run(['send-test-email', 'ops3@example.com'], undefined, { SMTP_URL: smtp.url('mailer', 'secret') });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('mailbox unavailable');
    expect(await outbox('ops3@example.com')).toEqual([{ kind: 'test_email', status: 'failed', last_error: expect.stringContaining('550') }]);
  });

  it('a bad address is refused', async () => {
    const r = await run(['send-test-email', 'nope']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('Enter a valid email address.');
  });
});

describe('export-organization and import-organization', { timeout: 180_000 }, () => {
  let server: ServerProcess;
  type Export = Record<string, unknown> & { users: Record<string, unknown>[]; channels: Record<string, unknown>[]; subscriptions: Record<string, unknown>[]; messages: Record<string, unknown>[] };

  /** An export with its ids replaced by what they name (emails, channel names), so two organizations compare. */
  function portable(e: Export) {
    const email = new Map(e.users.map((u) => [u.id, String(u.email).replace(/@.*$/, '')]));
    const channel = new Map(e.channels.map((c) => [c.id, c.name]));
    return {
      users: e.users.map((u) => [String(u.email).replace(/@.*$/, ''), u.full_name, u.role, u.is_active, u.is_bot]).sort(),
      channels: e.channels.map((c) => [c.name, c.description, c.invite_only, c.is_archived]).sort(),
      subscriptions: e.subscriptions.map((s) => [email.get(s.user_id), channel.get(s.channel_id), s.color, s.active]).map(String).sort(),
      messages: e.messages.map((m) => [
        email.get(m.sender_id),
        m.channel_id === null ? (m.direct_user_ids as number[]).map((u) => email.get(u)).join(',') : channel.get(m.channel_id),
        m.topic,
        m.content,
        m.date_sent,
        (m.user_flags as [number, number][]).map(([u, f]) => `${email.get(u)}:${f}`).join(','),
      ]),
    };
  }

  beforeAll(async () => {
    server = await startServer(await freePort(), { ...env(), LOG_LEVEL: 'warn' });
    const key = ((await (await fetch(`${server.url}/api/v1/fetch_api_key`, { method: 'POST', body: new URLSearchParams({ username: 'owner@example.com', password: NEW_PASSWORD }) })).json()) as { api_key: string }).api_key;
    const auth = { Authorization: `Basic ${Buffer.from(`owner@example.com:${key}`).toString('base64')}` };
    const carol = (await rows(`SELECT id FROM users WHERE delivery_email = 'carol@example.com'`))[0].id;
    const send = async (body: Record<string, string>) => {
      const res = await fetch(`${server.url}/api/v1/messages`, { method: 'POST', headers: auth, body: new URLSearchParams(body) });
      expect(res.status).toBe(200);
    };
    const created = await fetch(`${server.url}/api/v1/users/me/subscriptions`, { method: 'POST', headers: auth, body: new URLSearchParams({ subscriptions: JSON.stringify([{ name: 'design' }]), principals: JSON.stringify([carol]) }) });
    expect(created.status).toBe(200);
    for (let i = 1; i <= 5; i++) await send({ type: 'stream', to: 'general', topic: `topic ${i % 2}`, content: `hello **${i}**` });
    await send({ type: 'stream', to: 'design', topic: 'colours', content: 'blue or green?' });
    await send({ type: 'direct', to: JSON.stringify([carol]), content: 'a private word' });
  });
  afterAll(async () => {
    if (server) await stopServer(server);
  });

  it('exports the organization as one JSON document, in batches, and imports it into a new organization with ids remapped', async () => {
    const file = join(dir, 'root.json');
    const r = ok(await run(['export-organization', '--output', file, '--batch-size', '2', '--json']));
    const original = JSON.parse(await readFile(file, 'utf8')) as Export;
    expect(r.json()).toEqual({ result: 'success', exported: { users: original.users.length, channels: original.channels.length, subscriptions: original.subscriptions.length, messages: original.messages.length } });
    expect(original).toMatchObject({ format: 'svc-organization-export', version: 1, organization: { subdomain: '', name: 'Demo Organization' } });
    expect(original.messages.map((m) => m.content)).toEqual(expect.arrayContaining(['hello **1**', 'blue or green?', 'a private word']));
    expect(original.users.find((u) => u.email === 'carol@example.com')).not.toHaveProperty('password_hash');

    const imported = ok(await run(['import-organization', file, '--subdomain', 'copy', '--json'])).json();
    expect(imported).toMatchObject({ result: 'success', organization: { subdomain: 'copy', owner_email: 'owner@example.com', owner_password: expect.any(String) }, skipped: 0 });
    expect(imported.imported).toEqual((r.json() as { exported: unknown }).exported);

    const toStdout = await run(['export-organization', '--org', 'copy']);
    expect(toStdout.code).toBe(0);
    expect(toStdout.stderr).toMatch(/^Exported \d+ users, \d+ channels, \d+ subscriptions, \d+ messages\n$/); // the summary stays off stdout
    const copy = JSON.parse(toStdout.stdout) as Export;
    expect(copy.organization).toMatchObject({ subdomain: 'copy', name: 'Demo Organization' });
    expect(portable(copy)).toEqual(portable(original));
    // New rows, not the old ones: every id of the copy belongs to the new organization.
    const realm = (imported.organization as { id: number }).id;
    const foreign = await rows(`SELECT count(*)::int AS n FROM messages WHERE realm_id = $1 AND sender_id IN (SELECT id FROM users WHERE realm_id <> $1)`, [realm]);
    expect(foreign).toEqual([{ n: 0 }]);
    expect(copy.messages.every((m) => !original.messages.some((o) => o.id === m.id))).toBe(true);
  });

  it('the imported owner logs in with the printed password; other users get none (change-password sets one)', async () => {
    const owner = (await rows(`SELECT u.password_hash IS NOT NULL AS has FROM users u JOIN realms r ON r.id = u.realm_id WHERE r.string_id = 'copy' AND u.delivery_email = 'owner@example.com'`))[0];
    expect(owner).toEqual({ has: true });
    const carol = (await rows(`SELECT u.password_hash FROM users u JOIN realms r ON r.id = u.realm_id WHERE r.string_id = 'copy' AND u.delivery_email = 'carol@example.com'`))[0];
    expect(carol).toEqual({ password_hash: null });
  });

  it('refuses a taken subdomain, a missing file and a file that is not an export, creating nothing', async () => {
    const before = await rows(`SELECT count(*)::int AS n FROM realms`);
    const taken = await run(['import-organization', join(dir, 'root.json'), '--subdomain', 'copy']);
    expect(taken.code).toBe(1);
    expect(taken.stderr).toContain("Subdomain 'copy' is already in use");
    const missing = await run(['import-organization', join(dir, 'nope.json'), '--subdomain', 'other']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('cannot read');
    const notExport = await run(['import-organization', '-', '--subdomain', 'other'], '{"hello": "world"}\n');
    expect(notExport.code).toBe(1);
    expect(notExport.stderr).toContain('Not an organization export');
    // Cut short in the middle of the messages: the transaction rolls back, no organization is left half-imported.
    const text = await readFile(join(dir, 'root.json'), 'utf8');
    const cut = text.slice(0, text.indexOf('"messages":[')) + '"messages":[\n{"id": 1, "broken\n';
    const broken = await run(['import-organization', '-', '--subdomain', 'other'], cut);
    expect(broken.code).toBe(1);
    expect(await rows(`SELECT count(*)::int AS n FROM realms`)).toEqual(before);
  });

  it('an unknown organization cannot be exported', async () => {
    const r = await run(['export-organization', '--org', 'nowhere', '--json']);
    expect(r.code).toBe(1);
    expect(r.json()).toMatchObject({ result: 'error', code: 'NONEXISTENT_SUBDOMAIN' });
  });
});
