import { access, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LocalImportedFiles } from '../../../src/admin/persistence/local-imported-files.js';
import { ServerConfig } from '../../../src/shared/config/server-config.js';

// On the real filesystem, in a temporary folder: no database.
let root: string;
let uploads: string;
let source: string;
const exists = (path: string) => access(path).then(() => true, () => false);
const files = () => new LocalImportedFiles(ServerConfig.fromEnv({ UPLOADS_DIR: uploads }));

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'svc-imported-files-'));
  uploads = join(root, 'uploads');
  source = join(root, 'archive');
  await mkdir(source);
  await writeFile(join(source, 'upload.txt'), 'upload');
  await writeFile(join(source, 'party.gif'), 'GIF');
});
afterAll(() => rm(root, { recursive: true, force: true }));

describe('LocalImportedFiles', () => {
  it('copies an upload under its path id, creating the folders', async () => {
    const placed = files();
    await placed.placeUpload(join(source, 'upload.txt'), '7/ab/cd/upload.txt');
    expect(await readFile(join(uploads, '7', 'ab', 'cd', 'upload.txt'), 'utf8')).toBe('upload');
    // A copy: the archive's file stays.
    expect(await exists(join(source, 'upload.txt'))).toBe(true);
  });

  it('copies a custom emoji where the emoji storage serves it from', async () => {
    await files().placeEmoji(join(source, 'party.gif'), 12, 'abc.gif');
    expect(await readFile(join(uploads, 'avatars', '12', 'emoji', 'images', 'abc.gif'), 'utf8')).toBe('GIF');
  });

  it('refuses a path outside the uploads directory, writing nothing', async () => {
    const placed = files();
    for (const path of ['../escaped.txt', '/etc/escaped.txt', '', '.']) {
      await expect(placed.placeUpload(join(source, 'upload.txt'), path)).rejects.toThrow('path outside the uploads directory');
    }
    // The emoji folder is avatars/<realm>/emoji/images: five levels up is outside the uploads directory.
    await expect(placed.placeEmoji(join(source, 'party.gif'), 1, '../../../../../escaped.gif')).rejects.toThrow('path outside the uploads directory');
    expect(await readdir(root)).toEqual(expect.not.arrayContaining(['escaped.txt', 'escaped.gif']));
  });

  it('fails on a missing source file', async () => {
    await expect(files().placeUpload(join(source, 'missing.txt'), '7/missing.txt')).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('removes what this import placed, and only that, once', async () => {
    const earlier = files();
    await earlier.placeUpload(join(source, 'upload.txt'), '8/kept.txt');
    const placed = files();
    await placed.placeUpload(join(source, 'upload.txt'), '9/a.txt');
    await placed.placeEmoji(join(source, 'party.gif'), 9, 'e.gif');
    await placed.removePlaced();
    expect(await exists(join(uploads, '9', 'a.txt'))).toBe(false);
    expect(await exists(join(uploads, 'avatars', '9', 'emoji', 'images', 'e.gif'))).toBe(false);
    expect(await exists(join(uploads, '8', 'kept.txt'))).toBe(true);
    // Placing again after a removal and removing twice: nothing left over, no error.
    await placed.placeUpload(join(source, 'upload.txt'), '9/b.txt');
    await placed.removePlaced();
    await placed.removePlaced();
    expect(await exists(join(uploads, '9', 'b.txt'))).toBe(false);
  });
});
