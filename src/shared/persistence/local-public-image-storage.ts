import { rm } from 'node:fs/promises';
import { join, normalize, relative, sep } from 'node:path';
import { PublicImageStorage } from '../application/images.js';
import { writeFileAtomically } from './atomic-file.js';

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
    await writeFileAtomically(this.localPath(path), data);
  }

  async remove(paths: readonly string[]): Promise<void> {
    await Promise.all(paths.map((p) => rm(this.localPath(p), { force: true })));
  }
}
