import { randomBytes } from 'node:crypto';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join, normalize, relative, sep } from 'node:path';
import { PublicImageStorage } from '../application/images.js';

/**
 * Public images on local disk under `root` (Zulip's local backend keeps them under
 * LOCAL_UPLOADS_DIR/avatars, next to the custom emoji). Paths never leave the root.
 */
export class LocalPublicImageStorage extends PublicImageStorage {
  constructor(private readonly root: string) {
    super();
  }

  localPath(path: string): string {
    const full = normalize(join(this.root, path));
    const inside = relative(this.root, full);
    if (inside === '' || inside.startsWith(`..${sep}`) || inside === '..' || !/^[\w./-]+$/.test(path)) throw new Error(`invalid image path ${path}`);
    return full;
  }

  async write(path: string, data: Buffer): Promise<void> {
    const target = this.localPath(path);
    await mkdir(dirname(target), { recursive: true });
    const temporary = `${target}.${randomBytes(6).toString('hex')}.tmp`;
    try {
      await writeFile(temporary, data);
      await rename(temporary, target);
    } catch (err) {
      await rm(temporary, { force: true });
      throw err;
    }
  }

  async remove(paths: readonly string[]): Promise<void> {
    await Promise.all(paths.map((p) => rm(this.localPath(p), { force: true })));
  }
}
