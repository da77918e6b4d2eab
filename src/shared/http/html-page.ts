import type { Response } from 'express';

/** The small HTML pages outside the JSON API (password reset, sign-up): escaping, the page, an error line. */
export const escapeHtmlText = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export const htmlPage = (title: string, body: string): string =>
  `<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>${escapeHtmlText(title)}</title></head><body><h1>${escapeHtmlText(title)}</h1>${body}</body></html>\n`;

export const htmlError = (msg: string): string => `<p class="error" role="alert">${escapeHtmlText(msg)}</p>`;

export function sendHtmlPage(res: Response, status: number, title: string, body: string): void {
  res.status(status).type('html').send(htmlPage(title, body));
}
