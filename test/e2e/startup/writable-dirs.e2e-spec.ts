import { spawn } from 'node:child_process';
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Issue 16 §5: the built server (`node dist/src/main.js`) checks at start-up that the
 * directories it writes to are writable, and exits 1 naming the setting instead of failing the
 * first upload with a 500. The server never gets as far as the database (DATABASE_URL points
 * nowhere), so these runs take a second.
 */
let root: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'svc-dirs-'));
  await chmod(root, 0o755);
});
afterAll(() => rm(root, { recursive: true, force: true }));

/** Runs the server to its exit; `asUid`: as that user (the test runs as root in CI containers). */
function run(env: Record<string, string>, asUid?: number): Promise<{ code: number | null; output: string }> {
  const merged: NodeJS.ProcessEnv = { ...process.env, PORT: '0', LOG_LEVEL: 'warn', DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none', ...env };
  const proc = spawn(process.execPath, ['dist/src/main.js'], { env: merged, stdio: ['ignore', 'pipe', 'pipe'], ...(asUid === undefined ? {} : { uid: asUid, gid: asUid }) });
  let output = '';
  proc.stdout.on('data', (c) => (output += c));
  proc.stderr.on('data', (c) => (output += c));
  return new Promise((resolve) => proc.on('exit', (code) => resolve({ code, output })));
}

const NOBODY = 65534;
const isRoot = process.getuid?.() === 0;

it('exits 1 naming UPLOADS_DIR when the uploads directory belongs to another user', async () => {
  const uploads = join(root, 'root-owned-uploads');
  await mkdir(uploads, { mode: 0o755 });
  if (!isRoot) await chmod(uploads, 0o555); // not ours to write
  const { code, output } = await run({ UPLOADS_DIR: uploads }, isRoot ? NOBODY : undefined);
  expect(code).toBe(1);
  expect(output).toContain(`start-up failed: UPLOADS_DIR directory ${uploads} is not writable by the server's user`);
  expect(output).toContain('EACCES');
  expect(output).toContain('or set UPLOADS_DIR to a writable directory');
  expect(output).not.toContain('Server listening');
});

it('exits 1 naming UPLOAD_TEMP_DIR when it cannot be created (a file is in the way)', async () => {
  const file = join(root, 'a-file');
  await writeFile(file, 'not a directory');
  const { code, output } = await run({ UPLOADS_DIR: join(root, 'uploads'), UPLOAD_TEMP_DIR: join(file, 'tmp') });
  expect(code).toBe(1);
  expect(output).toContain(`start-up failed: UPLOAD_TEMP_DIR directory ${join(file, 'tmp')} is not writable`);
  expect(output).toContain('ENOTDIR');
});

it('checks DATA_DIR when the embedded PostgreSQL would live there (no DATABASE_URL)', async () => {
  const file = join(root, 'another-file');
  await writeFile(file, 'not a directory');
  const { code, output } = await run({ DATABASE_URL: '', DATA_DIR: join(file, 'data'), UPLOADS_DIR: join(root, 'uploads2') });
  expect(code).toBe(1);
  expect(output).toContain(`start-up failed: DATA_DIR directory ${join(file, 'data')} is not writable`);
});
