import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { emojiImagesDir, LocalEmojiImageStorage } from '../../../src/emoji/persistence/local-emoji-image-storage.js';

let dir: string;
let storage: LocalEmojiImageStorage;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'emoji-storage-'));
  storage = new LocalEmojiImageStorage(join(dir, 'root'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe('LocalEmojiImageStorage', () => {
  it('keeps an image at <root>/<realm id>/emoji/images/<file name>, moving the upload there', async () => {
    const upload = join(dir, 'upload.tmp');
    await writeFile(upload, 'GIF89a');
    await storage.save(7, 'abc123.gif', upload);
    const target = join(dir, 'root', '7', 'emoji', 'images', 'abc123.gif');
    expect(storage.path(7, 'abc123.gif')).toBe(target);
    expect(await readFile(target, 'utf8')).toBe('GIF89a');
    await expect(stat(upload)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('replaces an image of the same name', async () => {
    const upload = join(dir, 'upload.tmp');
    await writeFile(upload, 'one');
    await storage.save(1, 'e.png', upload);
    await writeFile(upload, 'two');
    await storage.save(1, 'e.png', upload);
    expect(await readFile(storage.path(1, 'e.png'), 'utf8')).toBe('two');
  });

  it('refuses file names that could leave the directory', () => {
    for (const name of ['../x.png', 'a/b.png', '.hidden', '', 'a b.png']) {
      expect(() => storage.path(1, name), name).toThrow('invalid emoji file name');
    }
    expect(storage.path(1, 'ok-name_1.PNG')).toBe(join(dir, 'root', '1', 'emoji', 'images', 'ok-name_1.PNG'));
  });

  it('lives next to the message uploads', () => {
    expect(emojiImagesDir('/var/uploads')).toBe(join('/var/uploads', 'avatars'));
  });
});
