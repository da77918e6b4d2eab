import { createReadStream, createWriteStream, type WriteStream } from 'node:fs';
import { once } from 'node:events';
import { access, mkdir, mkdtemp, readFile, rename, rm, stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { type ArchiveTable, checkManifest, invalidArchive } from '@app/domain/exports';
import { Injectable } from '@nestjs/common';
import * as tar from 'tar';
import { ServerConfig } from '../../shared/config/server-config.js';
import { ArchiveReader, ExportFiles, type OpenedArchive } from '../application/realm-exports.ports.js';

/**
 * One table of an archive: a JSON array with one row per line, so any JSON parser reads it
 * whole and the import reads it a line at a time. Written as the rows come (bounded memory).
 */
export class TableFile {
  private count = 0;
  private constructor(private readonly out: WriteStream) {}

  static async create(path: string): Promise<TableFile> {
    const out = createWriteStream(path, { flags: 'w', mode: 0o600 });
    await once(out, 'open');
    const file = new TableFile(out);
    await file.put('[');
    return file;
  }

  get rows(): number {
    return this.count;
  }

  async add(rows: readonly Record<string, unknown>[]): Promise<void> {
    for (const row of rows) {
      await this.put(`${this.count === 0 ? '\n' : ',\n'}${JSON.stringify(row)}`);
      this.count += 1;
    }
  }

  async close(): Promise<void> {
    await this.put('\n]\n');
    this.out.end();
    await once(this.out, 'finish');
  }

  private async put(text: string): Promise<void> {
    if (!this.out.write(text)) await once(this.out, 'drain');
  }
}

/** Packs the folder `dir` (the entries named, in that order) into the gzipped tar `target`, written whole or not at all. */
export async function packArchive(dir: string, entries: string[], target: string): Promise<number> {
  await mkdir(dirname(target), { recursive: true });
  const part = `${target}.part`;
  try {
    await tar.c({ gzip: true, file: part, cwd: dir, portable: true }, entries);
    await rename(part, target);
  } catch (err) {
    await rm(part, { force: true });
    throw err;
  }
  return (await stat(target)).size;
}

const exists = (path: string) => access(path).then(() => true, () => false);

/** The rows of one table file of an extracted archive. */
async function* tableRows(path: string): AsyncIterable<Record<string, unknown>> {
  if (!(await exists(path))) return;
  const lines = createInterface({ input: createReadStream(path, { encoding: 'utf8' }), crlfDelay: Infinity });
  for await (const line of lines) {
    const text = line.trim();
    if (text === '' || text === '[' || text === ']') continue;
    let row: unknown;
    try {
      row = JSON.parse(text.endsWith(',') ? text.slice(0, -1) : text);
    } catch {
      throw invalidArchive(`${path.split('/').pop()} holds a line that is not JSON`);
    }
    if (typeof row !== 'object' || row === null || Array.isArray(row)) throw invalidArchive(`${path.split('/').pop()} holds a row that is not an object`);
    yield row as Record<string, unknown>;
  }
}

/** Archives on disk: written under UPLOADS_DIR, extracted for an import under UPLOAD_TEMP_DIR. */
@Injectable()
export class LocalArchiveFiles extends ArchiveReader implements ExportFiles {
  constructor(private readonly config: ServerConfig) {
    super();
  }

  absolute(path: string): string {
    const root = resolve(this.config.uploadsDir);
    const full = resolve(root, path);
    if (!full.startsWith(`${root}/`)) throw new Error('path outside the uploads directory');
    return full;
  }

  async remove(path: string): Promise<void> {
    await rm(this.absolute(path), { force: true });
  }

  async open(file: string): Promise<OpenedArchive> {
    await mkdir(this.config.uploadTempDir, { recursive: true });
    const dir = await mkdtemp(join(this.config.uploadTempDir, 'import-'));
    // Retried: a failed extraction may still be finishing its last writes when it rejects.
    const close = () => rm(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
    try {
      // Only files and folders; tar itself keeps every path inside `dir` (no absolute paths, no `..`).
      await tar.x({ file, cwd: dir, strict: true, filter: (_p, e) => 'type' in e && (e.type === 'File' || e.type === 'Directory') });
    } catch {
      await close();
      throw invalidArchive('it is not a readable .tar.gz archive');
    }
    try {
      const text = await readFile(join(dir, 'manifest.json'), 'utf8').catch(() => null);
      if (text === null) throw invalidArchive('it has no manifest.json');
      let raw: unknown;
      try {
        raw = JSON.parse(text);
      } catch {
        throw invalidArchive('manifest.json is not JSON');
      }
      const manifest = checkManifest(raw);
      return {
        manifest,
        rows: (table: ArchiveTable) => tableRows(join(dir, `${table}.json`)),
        file: async (path: string) => {
          const full = resolve(dir, path);
          return full.startsWith(`${dir}/`) && (await exists(full)) ? full : null;
        },
        close,
      };
    } catch (err) {
      await close();
      throw err;
    }
  }
}
