import { chmod, mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir, userInfo } from 'node:os';
import { execFile } from 'node:child_process';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { assertWritable, writableDirs } from '../../../src/shared/persistence/writable-dirs.js';

/** The start-up check of the directories the server writes (writable-dirs.ts) on the real file system; the whole start is test/e2e/startup/writable-dirs.e2e-spec.ts. */
let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'svc-writable-'));
  await chmod(root, 0o755);
});
afterAll(() => rm(root, { recursive: true, force: true }));

/**
 * Root writes anywhere: as root (CI containers), the built check runs in a child process as
 * `nobody` (uid 65534), as the server would under a non-root user; returns its error message.
 */
function failureAsNobody(path: string): Promise<string> {
  const module = pathToFileURL(resolve('dist/src/shared/persistence/writable-dirs.js')).href;
  const script = `import(${JSON.stringify(module)}).then((m) => m.assertWritable([{ setting: 'UPLOAD_TEMP_DIR', path: ${JSON.stringify(path)} }])).then(() => console.log('no error'), (e) => console.log(e.message));`;
  return new Promise((done, fail) => {
    execFile(process.execPath, ['-e', script], { uid: 65534, gid: 65534 }, (err, stdout) => (err ? fail(err) : done(stdout.trim())));
  });
}

describe('writable directories', () => {
  it('names the embedded database’s directory only without DATABASE_URL', () => {
    const dirs = { dataDir: 'd', uploadsDir: 'u', uploadTempDir: 't' };
    expect(writableDirs(dirs)).toEqual([
      { setting: 'DATA_DIR', path: 'd' },
      { setting: 'UPLOADS_DIR', path: 'u' },
      { setting: 'UPLOAD_TEMP_DIR', path: 't' },
    ]);
    expect(writableDirs({ ...dirs, databaseUrl: 'postgres://x' }).map((d) => d.setting)).toEqual(['UPLOADS_DIR', 'UPLOAD_TEMP_DIR']);
  });

  it('creates missing directories and leaves no probe file behind', async () => {
    const path = join(root, 'a', 'b');
    await assertWritable([{ setting: 'UPLOADS_DIR', path }]);
    expect(await readdir(path)).toEqual([]);
  });

  it('stops with a message naming the setting when a directory is not writable', async () => {
    const path = join(root, 'locked');
    await mkdir(path);
    await chmod(path, 0o500);
    try {
      const message = userInfo().uid === 0 ? await failureAsNobody(path) : await assertWritable([{ setting: 'UPLOAD_TEMP_DIR', path }]).then(() => 'no error', (e: Error) => e.message);
      expect(message).toMatch(/^UPLOAD_TEMP_DIR directory .*locked is not writable by the server's user .*EACCES/);
    } finally {
      await chmod(path, 0o700);
    }
  });

  it('stops with a message naming the setting when the path is a file', async () => {
    await writeFile(join(root, 'plain-file'), '');
    await expect(assertWritable([{ setting: 'DATA_DIR', path: join(root, 'plain-file', 'sub') }])).rejects.toThrow(
      /^DATA_DIR directory .*plain-file\/sub is not writable by the server's user .*: (ENOTDIR|EEXIST)\. Make it writable/,
    );
  });
});
