import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Response as AgentResponse } from 'superagent';
import { WEB_APP_DIR } from '../../../src/server/http/web-app.controller.js';
import { TestApp } from '../../support/test-app.js';
import { webAppScript } from '../../support/web-app-files.js';

/** The web app as the server sends it: the page at `/` and its hashed assets (dist/web, built by `npm test`). */
let t: TestApp;
beforeAll(async () => {
  t = await TestApp.start();
});
afterAll(() => t.close());

/** The answer's bytes (superagent has already decoded a br or gzip body, so a bad encoding fails the request). */
const rawBody = (res: AgentResponse, done: (err: Error | null, body: Buffer) => void) => {
  const stream = res as unknown as NodeJS.ReadableStream; // a parser is handed the response stream
  const chunks: Buffer[] = [];
  stream.on('data', (c: Buffer) => chunks.push(c));
  stream.on('end', () => done(null, Buffer.concat(chunks)));
};

describe('GET /', () => {
  it('serves the built page, never cached, under a Content-Security-Policy without inline scripts', async () => {
    const res = await t.http.get('/');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.text).toBe(readFileSync(join(WEB_APP_DIR, 'index.html'), 'utf8'));
    expect(res.text).toContain(`/assets/${webAppScript()}`);
    expect(res.text).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/); // no inline script in the page itself
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers['x-frame-options']).toBe('DENY');
    const csp = res.headers['content-security-policy'] as string;
    const scriptSrc = csp.split(';').map((d) => d.trim()).find((d) => d.startsWith('script-src'));
    expect(scriptSrc).toBe("script-src 'self'");
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("connect-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toMatch(/unsafe-eval/);
  });

  it('is the same page on every organization address, for every caller', async () => {
    const a = await t.http.get('/').set('Host', 'other.example.com');
    const b = await t.http.get('/').set('Authorization', 'Basic Zm9vOmJhcg==');
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(a.text).toBe(b.text);
  });
});

describe('GET /assets/:file', () => {
  it('serves a hashed script for a year, brotli or gzip compressed when the browser accepts it', async () => {
    const name = webAppScript();
    const original = readFileSync(join(WEB_APP_DIR, 'assets', name));
    const br = await t.http.get(`/assets/${name}`).set('Accept-Encoding', 'gzip, deflate, br').buffer(true).parse(rawBody);
    expect(br.status).toBe(200);
    expect(br.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/Accept-Encoding/);
    expect((br.body as Buffer).equals(original)).toBe(true);
    const gz = await t.http.get(`/assets/${name}`).set('Accept-Encoding', 'gzip').buffer(true).parse(rawBody);
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect((gz.body as Buffer).equals(original)).toBe(true);
    const plain = await t.http.get(`/assets/${name}`).set('Accept-Encoding', 'identity').buffer(true).parse(rawBody);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect((plain.body as Buffer).equals(original)).toBe(true);
  });

  it('serves nothing outside the built assets: no other folder, no precompressed file by name, no unknown type', async () => {
    const name = webAppScript();
    for (const path of [
      '/assets/missing-0000.js',
      `/assets/${name}.br`,
      `/assets/${name}.gz`,
      '/assets/..%2Findex.html',
      '/assets/..%2F..%2Fpackage.json',
      '/assets/.hidden.js',
      `/assets/${'a'.repeat(5000)}.js`,
    ]) {
      const res = await t.http.get(path);
      expect({ path, status: res.status, body: res.body }).toEqual({ path, status: 404, body: { result: 'error', msg: 'Not Found', code: 'NOT_FOUND' } });
    }
  });
});
