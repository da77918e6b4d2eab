import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { NotFoundException } from '@nestjs/common';
import type { Response } from 'express';
import { detectServedContent, readHead, UPLOAD_CONTENT_SECURITY_POLICY } from '../../shared/http/served-content.js';

/**
 * Sends a stored upload (or a thumbnail of one): its type from its own bytes, never from the
 * uploader's claim or the name; shown in place only when browsers show that type passively; no
 * scripts whatever it is. A file that cannot be read is a 404. `size`: its length when known
 * (else read from the file).
 */
export async function sendStoredFile(res: Response, file: string, name: string, size?: number): Promise<void> {
  const head = await readHead(file);
  const length = size ?? (await stat(file).then((s) => s.size, () => null));
  if (head === null || length === null) throw new NotFoundException();
  const { contentType, inline } = detectServedContent(head);
  res.setHeader('Content-Type', contentType);
  res.setHeader('Content-Security-Policy', UPLOAD_CONTENT_SECURITY_POLICY);
  res.setHeader('Content-Disposition', `${inline ? 'inline' : 'attachment'}; filename*=UTF-8''${encodeURIComponent(name)}`);
  res.setHeader('Content-Length', String(length));
  createReadStream(file).on('error', () => res.status(404).end()).pipe(res);
}
