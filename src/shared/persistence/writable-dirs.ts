import { randomBytes } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { userInfo } from 'node:os';

/** A directory the server writes to, by the setting that names it. */
export interface WritableDir {
  setting: string;
  path: string;
}

/** The directories this server will write to: the embedded PostgreSQL's (without DATABASE_URL), uploads, upload spool. */
export function writableDirs(c: { databaseUrl?: string; dataDir: string; uploadsDir: string; uploadTempDir: string }): WritableDir[] {
  return [
    ...(c.databaseUrl ? [] : [{ setting: 'DATA_DIR', path: c.dataDir }]),
    { setting: 'UPLOADS_DIR', path: c.uploadsDir },
    { setting: 'UPLOAD_TEMP_DIR', path: c.uploadTempDir },
  ];
}

/**
 * Creates each directory if missing and writes (then removes) a file in it, so a directory
 * this process cannot write (a root-owned path in a container running as `node`, a read-only
 * mount) stops the start-up with a message naming the setting, instead of the first upload
 * failing with a 500. Throws an Error whose message says what to do.
 */
export async function assertWritable(dirs: readonly WritableDir[]): Promise<void> {
  for (const d of dirs) {
    const path = resolve(d.path);
    const probe = resolve(path, `.write-check-${process.pid}-${randomBytes(4).toString('hex')}`);
    try {
      await mkdir(path, { recursive: true });
      await writeFile(probe, '');
      await rm(probe, { force: true });
    } catch (e) {
      const err = e as NodeJS.ErrnoException;
      const user = (() => {
        try {
          const u = userInfo();
          return `${u.username} (uid ${u.uid})`;
        } catch {
          return `uid ${process.getuid?.() ?? '?'}`;
        }
      })();
      throw new Error(
        `${d.setting} directory ${path} is not writable by the server's user ${user}: ${err.code ?? err.message}. ` +
          `Make it writable by that user (e.g. chown it, or mount a volume it owns) or set ${d.setting} to a writable directory.`,
        { cause: e },
      );
    }
  }
}
