import { createReadStream, existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DomainError } from '@app/domain/shared';
import { Controller, Get, Param, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { Public } from '../../shared/auth/decorators.js';
import { RawResponse } from '../../shared/http/envelope.interceptor.js';

/** The project's root: the nearest folder above this file holding package.json (from src/ or dist/src/). */
function packageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json')) && dirname(dir) !== dir) dir = dirname(dir);
  return dir;
}

/** Where `npm run build` puts the web app (Vite: index.html and hashed files under assets/). */
export const WEB_APP_DIR = join(packageRoot(), 'dist', 'web');

/**
 * The page's policy: scripts only from this origin (no inline script, no eval); styles from here
 * and inline (rendered math carries style attributes); images from here, data/blob URLs (local
 * previews) and avatar services over https; requests only to this origin.
 */
export const WEB_APP_CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob: https:",
  "media-src 'self'",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.map': 'application/json; charset=utf-8',
};

/** Precompressed variants written by scripts/build.mjs, best first. */
const ENCODINGS = new Map([
  ['br', '.br'],
  ['gzip', '.gz'],
]);

/** A file name Vite writes (`index-APxhobvw.js`): no path separators, no dot files. */
const ASSET_NAME = /^[A-Za-z0-9_-][A-Za-z0-9_.-]*$/;

const notFound = () => new DomainError('Not Found', 'NOT_FOUND', 'not_found');

/** Called on every page load to give the page its CSRF cookie (the sessions' double-submit token). */
export abstract class PageCookies {
  abstract onPage(req: Request, res: Response): void;
}

/**
 * The web app, served by the server itself at `/`: the page (never cached, so a new build is
 * picked up at once) and its hashed assets (cached for a year, immutable). Nothing from a CDN.
 */
@Controller()
@Public()
export class WebAppController {
  private page: string | null = null;

  constructor(private readonly cookies: PageCookies) {}

  @Get()
  @RawResponse()
  index(@Req() req: Request, @Res() res: Response): void {
    this.page ??= readPage();
    if (this.page === null) {
      res.status(503).type('text/plain').send('The web app is not built: run `npm run build`.\n');
      return;
    }
    this.cookies.onPage(req, res);
    res.setHeader('Content-Security-Policy', WEB_APP_CONTENT_SECURITY_POLICY);
    res.setHeader('Cache-Control', 'no-cache');
    res.setHeader('X-Frame-Options', 'DENY');
    res.type('html').send(this.page);
  }

  /** A hashed asset, brotli- or gzip-compressed at build time when the browser accepts it. */
  @Get('assets/:file')
  @RawResponse()
  asset(@Param('file') file: string, @Req() req: Request, @Res() res: Response): void {
    const type = TYPES[extname(file)];
    const path = join(WEB_APP_DIR, 'assets', file);
    if (!ASSET_NAME.test(file) || type === undefined || !isFile(path)) throw notFound();
    const encoding = [...ENCODINGS].find(([name, suffix]) => req.acceptsEncodings(name) === name && isFile(path + suffix));
    res.setHeader('Content-Type', type);
    res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
    res.setHeader('Vary', 'Accept-Encoding');
    if (encoding) res.setHeader('Content-Encoding', encoding[0]);
    createReadStream(encoding ? path + encoding[1] : path).pipe(res);
  }
}

function readPage(): string | null {
  try {
    return readFileSync(join(WEB_APP_DIR, 'index.html'), 'utf8');
  } catch {
    return null;
  }
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
