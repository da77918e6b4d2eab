import { copyFile, mkdir, rm } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { Injectable } from '@nestjs/common';
import { ServerConfig } from '../../shared/config/server-config.js';
import { ImportedFiles } from '../application/archive-import.ports.js';

/** The files of an import, copied under UPLOADS_DIR where the server serves them from. One instance per import. */
@Injectable()
export class LocalImportedFiles extends ImportedFiles {
  private readonly placed: string[] = [];

  constructor(private readonly config: ServerConfig) {
    super();
  }

  private async place(from: string, relative: string): Promise<void> {
    const root = resolve(this.config.uploadsDir);
    const target = resolve(root, relative);
    if (!target.startsWith(`${root}/`)) throw new Error('path outside the uploads directory');
    await mkdir(dirname(target), { recursive: true });
    await copyFile(from, target);
    this.placed.push(target);
  }

  placeUpload(from: string, pathId: string): Promise<void> {
    return this.place(from, pathId);
  }

  placeEmoji(from: string, realmId: number, fileName: string): Promise<void> {
    // Where the emoji context keeps them (LocalEmojiImageStorage): avatars/<realm>/emoji/images/.
    return this.place(from, join('avatars', String(realmId), 'emoji', 'images', fileName));
  }

  async removePlaced(): Promise<void> {
    for (const f of this.placed.splice(0)) await rm(f, { force: true });
  }
}
