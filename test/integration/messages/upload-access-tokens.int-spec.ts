import { createHmac } from 'node:crypto';
import { DataSource } from 'typeorm';
import { UPLOAD_ACCESS_TOKEN_SECONDS, UploadAccessTokens } from '../../../src/messages/application/thumbnail.ports.js';
import { HmacUploadAccessTokens } from '../../../src/messages/persistence/hmac-upload-access-tokens.js';
import { TestApp } from '../../support/test-app.js';

/*
 * HmacUploadAccessTokens against PostgreSQL and node's HMAC: the shared secret in
 * server_secrets (made once, on the first issue), the token's format and signature, its
 * lifetime, and tokens checked by another server process.
 */

let t: TestApp;
let ds: DataSource;

beforeAll(async () => {
  t = await TestApp.start();
  ds = t.app.get(DataSource);
});
afterAll(() => t.close());

const secretRows = (): Promise<{ name: string; secret: string }[]> => ds.query(`SELECT name, secret FROM server_secrets WHERE name = 'user_uploads'`);
const decode = (token: string) => Buffer.from(token, 'hex').toString('utf8');
const PATH = '2/ab/AAAAAAAAAAAAAAAAAAAAAAAA/report.pdf';

describe('HmacUploadAccessTokens', () => {
  it('checks nothing and writes nothing before a secret exists', async () => {
    expect(t.app.get(UploadAccessTokens)).toBeInstanceOf(HmacUploadAccessTokens);
    await ds.query(`DELETE FROM server_secrets WHERE name = 'user_uploads'`);
    const fresh = new HmacUploadAccessTokens(ds);
    const forged = Buffer.from(`${PATH}:abc:${'A'.repeat(43)}`).toString('hex').toUpperCase();
    expect(await fresh.verify(forged, new Date())).toBeNull();
    expect(await secretRows()).toEqual([]);
  });

  it('signs `<path>:<issued, base 36>` with HMAC-SHA256 of the salted payload, under a secret made once', async () => {
    const now = new Date('2026-05-06T07:08:09Z');
    const tokens = new HmacUploadAccessTokens(ds);
    const token = await tokens.issue(PATH, now);
    const [row] = await secretRows();
    expect(row.secret).toMatch(/^[0-9a-f]{64}$/);
    await new HmacUploadAccessTokens(ds).issue('other', now);
    expect(await secretRows()).toEqual([row]);

    expect(token).toMatch(/^([0-9A-F]{2})+$/);
    const payload = `${PATH}:${Math.floor(now.getTime() / 1000).toString(36)}`;
    const signature = createHmac('sha256', Buffer.from(row.secret, 'hex')).update('user_uploads_').update(payload).digest('base64url');
    expect(decode(token)).toBe(`${payload}:${signature}`);
  });

  it('names its upload for its lifetime, to any server process, and nothing once altered or expired', async () => {
    const now = new Date('2026-05-06T07:08:09Z');
    const token = await new HmacUploadAccessTokens(ds).issue(PATH, now);
    const peer = new HmacUploadAccessTokens(ds);
    const at = (s: number) => new Date(now.getTime() + s * 1000);
    expect(await peer.verify(token, now)).toBe(PATH);
    expect(await peer.verify(token, at(UPLOAD_ACCESS_TOKEN_SECONDS))).toBe(PATH);
    expect(await peer.verify(token, at(UPLOAD_ACCESS_TOKEN_SECONDS + 1))).toBeNull();

    const [payloadPath, issued, signature] = decode(token).split(':');
    const encode = (s: string) => Buffer.from(s, 'utf8').toString('hex').toUpperCase();
    expect(await peer.verify(encode(`2/ab/other.pdf:${issued}:${signature}`), now)).toBeNull();
    expect(await peer.verify(encode(`${payloadPath}:${(parseInt(issued, 36) + 60).toString(36)}:${signature}`), now)).toBeNull();
    expect(await peer.verify(token.toLowerCase(), now)).toBeNull();
    expect(await peer.verify('ABC', now)).toBeNull();
    expect(await peer.verify(encode('no signature'), now)).toBeNull();
    expect(await peer.verify('AB'.repeat(4097), now)).toBeNull();
  });

  it('rejects tokens signed under another secret', async () => {
    const now = new Date();
    const token = await new HmacUploadAccessTokens(ds).issue(PATH, now);
    await ds.query(`UPDATE server_secrets SET secret = $1 WHERE name = 'user_uploads'`, ['00'.repeat(32)]);
    expect(await new HmacUploadAccessTokens(ds).verify(token, now)).toBeNull();
  });
});
