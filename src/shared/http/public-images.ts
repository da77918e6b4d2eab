import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { NotFoundException } from '@nestjs/common';
import type { Response } from 'express';
import { UPLOAD_CONTENT_SECURITY_POLICY } from './served-content.js';

/**
 * Writes a stored PNG (an avatar, an organization icon or logo) as the answer, or 404 when
 * there is none. `cacheControl`: how long browsers may keep it (an avatar's path changes with
 * every upload; an icon's or logo's does not, its URL's `version` does).
 */
export async function servePng(res: Response, localPath: string, cacheControl: string): Promise<void> {
  const size = await stat(localPath).then(
    (s) => (s.isFile() ? s.size : null),
    () => null,
  );
  if (size === null) throw new NotFoundException();
  res.setHeader('Content-Type', 'image/png');
  res.setHeader('Content-Security-Policy', UPLOAD_CONTENT_SECURITY_POLICY);
  res.setHeader('Content-Length', String(size));
  res.setHeader('Cache-Control', cacheControl);
  createReadStream(localPath)
    .on('error', () => res.destroy())
    .pipe(res);
}

/**
 * Zulip's redirect to an avatar, icon or logo: 302 to the URL with the request's own query
 * string appended (append_url_query_string), and no body.
 */
export function redirectWithQuery(res: Response, url: string, originalUrl: string): void {
  const at = originalUrl.indexOf('?');
  const query = at === -1 ? '' : originalUrl.slice(at + 1);
  const target = query === '' ? url : `${url}${url.includes('?') ? '&' : '?'}${query}`;
  res.status(302).setHeader('Location', target);
  res.end();
}
