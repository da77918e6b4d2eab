import { copyFile, mkdir, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { EmojiImageStorage } from '../application/realm-emoji.ports.js';

/** Custom emoji images on local disk: <root>/<realm id>/emoji/images/<file name>. */
export class LocalEmojiImageStorage extends EmojiImageStorage {
  constructor(private readonly root: string) {
    super();
  }

  path(realmId: number, fileName: string): string {
    if (!/^[\w.-]+$/.test(fileName) || fileName.startsWith('.')) throw new Error('invalid emoji file name');
    return join(this.root, String(realmId), 'emoji', 'images', fileName);
  }

  async save(realmId: number, fileName: string, tempFile: string): Promise<void> {
    const target = this.path(realmId, fileName);
    await mkdir(dirname(target), { recursive: true });
    await copyFile(tempFile, target);
    await rm(tempFile, { force: true });
  }
}

/** Next to the message uploads, as Zulip keeps avatars and emoji apart from them. */
export const emojiImagesDir = (uploadsDir: string) => join(uploadsDir, 'avatars');
