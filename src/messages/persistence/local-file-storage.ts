import { copyFile, mkdir, rename, rm } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { FileStorage } from '../application/message.ports.js';
import { writeFileAtomically } from '../../shared/persistence/atomic-file.js';

/** Uploaded files on local disk, under UPLOADS_DIR (default `<DATA_DIR>/uploads`). */
export class LocalFileStorage extends FileStorage {
  constructor(private readonly root: string) {
    super();
  }

  path(pathId: string): string {
    const full = resolve(this.root, pathId);
    if (!full.startsWith(resolve(this.root) + '/')) throw new Error('path outside the uploads directory');
    return full;
  }

  async save(pathId: string, tempFile: string): Promise<void> {
    const target = this.path(pathId);
    await mkdir(dirname(target), { recursive: true });
    try {
      await rename(tempFile, target);
    } catch (err) {
      // The temporary folder is on another file system.
      if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err;
      await copyFile(tempFile, target);
      await rm(tempFile, { force: true });
    }
  }

  async remove(pathId: string): Promise<void> {
    await rm(this.path(pathId), { force: true });
  }

  async write(pathId: string, data: Buffer): Promise<void> {
    await writeFileAtomically(this.path(pathId), data);
  }

  async removeThumbnails(pathId: string): Promise<void> {
    await rm(this.path(`thumbnail/${pathId}`), { recursive: true, force: true });
  }
}

export const defaultUploadsDir = (dataDir: string) => join(dataDir, 'uploads');
