import { existsSync, statSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultUploadsDir, LocalFileStorage } from '../../../src/messages/persistence/local-file-storage.js';

/*
 * LocalFileStorage on the real file system (a temporary directory): uploads saved from a
 * temporary file (also across file systems), files the server writes, removal, and paths kept
 * inside the uploads directory.
 */

let root: string;
let scratch: string;
let storage: LocalFileStorage;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'svc-file-storage-'));
  scratch = await mkdtemp(join(tmpdir(), 'svc-file-scratch-'));
  storage = new LocalFileStorage(join(root, 'uploads'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
  await rm(scratch, { recursive: true, force: true });
});

async function tempFile(dir: string, name: string, content: string): Promise<string> {
  const file = join(dir, name);
  await writeFile(file, content);
  return file;
}

describe('LocalFileStorage', () => {
  it('maps a path id into the uploads directory, and refuses one that leaves it', () => {
    expect(storage.path('2/ab/x.txt')).toBe(join(root, 'uploads', '2/ab/x.txt'));
    expect(() => storage.path('../outside.txt')).toThrow('path outside the uploads directory');
    expect(() => storage.path('2/../../uploads2/x')).toThrow('path outside the uploads directory');
    expect(() => storage.path('')).toThrow('path outside the uploads directory');
    expect(defaultUploadsDir('/data')).toBe('/data/uploads');
  });

  it('saves an upload by moving its temporary file, making its folders', async () => {
    const file = await tempFile(scratch, 'upload-1', 'hello');
    await storage.save('2/ab/hello.txt', file);
    expect(await readFile(storage.path('2/ab/hello.txt'), 'utf8')).toBe('hello');
    expect(existsSync(file)).toBe(false);
  });

  it('copies an upload whose temporary file is on another file system', async () => {
    const shm = '/dev/shm';
    if (!existsSync(shm) || statSync(shm).dev === statSync(root).dev) return;
    const dir = await mkdtemp(join(shm, 'svc-file-'));
    try {
      const file = await tempFile(dir, 'upload-2', 'far away');
      await storage.save('2/cd/far.txt', file);
      expect(await readFile(storage.path('2/cd/far.txt'), 'utf8')).toBe('far away');
      expect(existsSync(file)).toBe(false);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('writes a file whole, replacing one there, and leaves no temporary file', async () => {
    await storage.write('thumbnail/2/ab/pic.png/840x560.webp', Buffer.from('one'));
    await storage.write('thumbnail/2/ab/pic.png/840x560.webp', Buffer.from('two'));
    expect(await readFile(storage.path('thumbnail/2/ab/pic.png/840x560.webp'), 'utf8')).toBe('two');
    expect(await readdir(storage.path('thumbnail/2/ab/pic.png'))).toEqual(['840x560.webp']);
  });

  it('cleans up its temporary file when writing fails', async () => {
    await mkdir(storage.path('2/blocked/target'), { recursive: true });
    await expect(storage.write('2/blocked/target', Buffer.from('x'))).rejects.toThrow();
    expect(await readdir(storage.path('2/blocked'))).toEqual(['target']);
  });

  it('removes a file (a missing one is no error) and every thumbnail of an upload', async () => {
    const file = await tempFile(scratch, 'upload-3', 'bye');
    await storage.save('2/ef/bye.txt', file);
    await storage.remove('2/ef/bye.txt');
    expect(existsSync(storage.path('2/ef/bye.txt'))).toBe(false);
    await storage.remove('2/ef/bye.txt');

    await storage.write('thumbnail/2/ef/pic.png/a.webp', Buffer.from('a'));
    await storage.write('thumbnail/2/ef/pic.png/b.webp', Buffer.from('b'));
    await storage.removeThumbnails('2/ef/pic.png');
    expect(existsSync(storage.path('thumbnail/2/ef/pic.png'))).toBe(false);
    await storage.removeThumbnails('2/ef/pic.png');
    await expect(storage.removeThumbnails('../../x')).rejects.toThrow('path outside the uploads directory');
  });
});
