import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LocalPublicImageStorage } from '../../../src/shared/persistence/local-public-image-storage.js';

/** LocalPublicImageStorage against the real file system: public images under a root they never leave. */
let root: string;
let storage: LocalPublicImageStorage;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'svc-images-'));
  storage = new LocalPublicImageStorage(join(root, 'avatars'));
});
afterAll(() => rm(root, { recursive: true, force: true }));

describe('LocalPublicImageStorage', () => {
  it('writes a file, creating its directories, and replaces it whole, leaving no temporary file', async () => {
    await storage.write('1/abc-medium.png', Buffer.from('first'));
    await storage.write('1/abc-medium.png', Buffer.from('second'));
    expect(await readFile(join(root, 'avatars', '1', 'abc-medium.png'), 'utf8')).toBe('second');
    expect(await readdir(join(root, 'avatars', '1'))).toEqual(['abc-medium.png']);
  });

  it('removes files, missing ones included', async () => {
    await storage.write('2/a.png', Buffer.from('a'));
    await storage.write('2/b.png', Buffer.from('b'));
    await storage.remove(['2/a.png', '2/missing.png']);
    expect(await readdir(join(root, 'avatars', '2'))).toEqual(['b.png']);
  });

  it('refuses paths outside its root or with unexpected characters', async () => {
    for (const path of ['../escape.png', '1/../../escape.png', '', '.', '1/a b.png', '1/a?.png'])
      expect(() => storage.localPath(path), path).toThrow(`invalid image path ${path}`);
    await expect(storage.write('../escape.png', Buffer.from('x'))).rejects.toThrow('invalid image path');
    await expect(storage.remove(['../escape.png'])).rejects.toThrow('invalid image path');
    expect(await readdir(root)).toEqual(['avatars']);
    expect(storage.localPath('3/x.png')).toBe(join(root, 'avatars', '3', 'x.png'));
  });
});
