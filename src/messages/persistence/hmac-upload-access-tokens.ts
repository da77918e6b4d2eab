import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { UPLOAD_ACCESS_TOKEN_SECONDS, UploadAccessTokens } from '../application/thumbnail.ports.js';

/** The `server_secrets` row these tokens are signed with. */
const SECRET_NAME = 'user_uploads';
/** Zulip's USER_UPLOADS_ACCESS_TOKEN_SALT: a key of its own for this kind of token. */
const SALT = 'user_uploads_';

/**
 * Temporary upload URLs as Zulip's TimestampSigner makes them: `<path_id>:<timestamp>:<signature>`
 * (an HMAC-SHA256 of the path and the time it was issued, keyed by a server secret), written in
 * upper-case hexadecimal so that it is one URL segment. The secret is made on first use and kept
 * in `server_secrets`, so every server process signs and checks with the same one, and a restart
 * keeps the tokens it issued valid until they expire. Checking a token never writes anything.
 */
@Injectable()
export class HmacUploadAccessTokens extends UploadAccessTokens {
  private secret: Buffer | null = null;

  constructor(private readonly ds: DataSource) {
    super();
  }

  async issue(pathId: string, now: Date): Promise<string> {
    const key = this.secret ?? (await this.loadSecret(true))!;
    const payload = `${pathId}:${Math.floor(now.getTime() / 1000).toString(36)}`;
    return Buffer.from(`${payload}:${this.sign(key, payload)}`, 'utf8').toString('hex').toUpperCase();
  }

  async verify(token: string, now: Date): Promise<string | null> {
    if (!/^(?:[0-9A-F]{2})+$/.test(token) || token.length > 8192) return null;
    const signed = Buffer.from(token, 'hex').toString('utf8');
    const m = /^(.+):([0-9a-z]{1,12}):([A-Za-z0-9_-]{43})$/s.exec(signed);
    if (m === null) return null;
    const key = this.secret ?? (await this.loadSecret(false));
    if (key === null) return null;
    const expected = Buffer.from(this.sign(key, `${m[1]}:${m[2]}`));
    const given = Buffer.from(m[3]);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
    const age = Math.floor(now.getTime() / 1000) - parseInt(m[2], 36);
    return age > UPLOAD_ACCESS_TOKEN_SECONDS ? null : m[1];
  }

  private sign(key: Buffer, payload: string): string {
    return createHmac('sha256', key).update(SALT).update(payload).digest('base64url');
  }

  /** The shared secret; `create`: made (once, whoever comes first) when there is none yet. */
  private async loadSecret(create: boolean): Promise<Buffer | null> {
    if (create) {
      await this.ds.query(`INSERT INTO server_secrets (name, secret) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING`, [
        SECRET_NAME,
        randomBytes(32).toString('hex'),
      ]);
    }
    const [row]: { secret: string }[] = await this.ds.query(`SELECT secret FROM server_secrets WHERE name = $1`, [SECRET_NAME]);
    if (row === undefined) return null;
    this.secret = Buffer.from(row.secret, 'hex');
    return this.secret;
  }
}
