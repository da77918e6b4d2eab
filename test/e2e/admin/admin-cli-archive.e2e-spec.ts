import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import pg from 'pg';
import * as tar from 'tar';
import { type CliSandbox, expectCliOk, openCliSandbox, svcAdmin } from '../../support/admin-cli.js';

/**
 * `svc-admin export-organization --archive` and `svc-admin import-organization <archive.tar.gz>`
 * (issue 25, item 4) as real processes (the built bin/svc-admin.mjs) on a database of their own:
 * output, exit codes and the rows left. The comparison of an imported organization's answers
 * with the original's is test/e2e/exports/organization-import.e2e-spec.ts.
 */
let url: string;
let db: pg.Client;
let dir: string;

const env = () => ({ DATABASE_URL: url, OWNER_PASSWORD: 'owner-Secret-Passphrase-42', EMAIL_POLL_INTERVAL_MS: '0', EXTERNAL_URL: 'http://localhost:9991', UPLOADS_DIR: join(dir, 'uploads') });
const run = (args: string[]) => svcAdmin(args, { env: env() });
const count = async (sql: string) => ((await db.query(sql)).rows[0] as { n: number }).n;
const ok = expectCliOk;

let sandbox: CliSandbox;
beforeAll(async () => {
  sandbox = await openCliSandbox('admin_cli_archive', 'svc-admin-archive-');
  ({ url, db, dir } = sandbox);
});
afterAll(() => sandbox?.close());

describe('organization archives on the command line', { timeout: 120_000 }, () => {
  it('writes an archive of an organization and imports it under a new subdomain', async () => {
    // The first command creates the root organization (as the server's first start does).
    await run(['create-user', 'alice@example.com', '--full-name', 'Alice', '--json']);
    const file = join(dir, 'root.tar.gz');
    const exported = ok(await run(['export-organization', '--archive', '--output', file, '--json'])).json();
    expect(exported).toMatchObject({ result: 'success', exported: { users: expect.any(Number), channels: expect.any(Number) }, size: expect.any(Number) });
    const names: string[] = [];
    await tar.t({ file, onReadEntry: (e) => names.push(e.path) });
    expect(names[0]).toBe('manifest.json');

    const imported = ok(await run(['import-organization', file, '--subdomain', 'copy', '--name', 'The Copy', '--json'])).json();
    expect(imported).toMatchObject({
      result: 'success',
      organization: { subdomain: 'copy', url: 'http://copy.localhost:9991', owner_email: 'owner@example.com', owner_password: expect.any(String) },
      imported: { users: (exported.exported as { users: number }).users },
      skipped: 0,
    });
    expect((await db.query(`SELECT name FROM realms WHERE string_id = 'copy'`)).rows).toEqual([{ name: 'The Copy' }]);
    expect(await count(`SELECT count(*)::int AS n FROM users u JOIN realms r ON r.id = u.realm_id WHERE r.string_id = 'copy' AND u.delivery_email = 'alice@example.com'`)).toBe(1);
    const human = ok(await run(['import-organization', file, '--subdomain', 'copy2']));
    expect(human.stdout).toMatch(/^Imported the organization \(id \d+\) at http:\/\/copy2\.localhost:9991: /);
  });

  it('refuses a subdomain in use, a corrupt archive and one of a newer format (exit 1), creating nothing', async () => {
    const file = join(dir, 'root.tar.gz');
    const before = await count(`SELECT count(*)::int AS n FROM realms`);
    const taken = await run(['import-organization', file, '--subdomain', 'copy', '--json']);
    expect(taken.code).toBe(1);
    expect(taken.json()).toEqual({ result: 'error', msg: "Subdomain 'copy' is already in use", code: 'BAD_REQUEST' });

    const corrupt = join(dir, 'corrupt.tar.gz');
    await writeFile(corrupt, Buffer.concat([Buffer.from([0x1f, 0x8b, 0x08, 0x00]), Buffer.from('not really gzip')]));
    const bad = await run(['import-organization', corrupt, '--subdomain', 'corrupt']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toBe('svc-admin: Not an organization export: it is not a readable .tar.gz archive\n');

    const unpacked = await mkdtemp(join(dir, 'newer-'));
    await tar.x({ file, cwd: unpacked });
    const manifest = JSON.parse(await readFile(join(unpacked, 'manifest.json'), 'utf8'));
    await writeFile(join(unpacked, 'manifest.json'), JSON.stringify({ ...manifest, version: 7 }));
    const newer = join(dir, 'newer.tar.gz');
    await tar.c({ gzip: true, file: newer, cwd: unpacked }, ['manifest.json', 'users.json']);
    const refused = await run(['import-organization', newer, '--subdomain', 'newer']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe('svc-admin: The export is of format version 7, newer than this server reads (1): import it on a newer server\n');
    expect(await count(`SELECT count(*)::int AS n FROM realms`)).toBe(before);
  });

  it('--archive needs a file to write to', async () => {
    const r = await run(['export-organization', '--archive']);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('svc-admin: --archive needs --output <file.tar.gz>\n');
  });
});
