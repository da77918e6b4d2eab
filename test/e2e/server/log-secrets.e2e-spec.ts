import { Writable } from 'node:stream';
import { DataSource } from 'typeorm';
import { createLogger } from '../../../src/shared/logging/logger.js';
import { OWNER_PASSWORD, TestApp } from '../../support/test-app.js';

/** Every line the app logs, as written. */
const lines: string[] = [];
const sink = new Writable({
  write(chunk: Buffer, _enc, done) {
    lines.push(...chunk.toString().split('\n').filter(Boolean));
    done();
  },
});

let t: TestApp;
beforeAll(async () => {
  t = await TestApp.start({}, createLogger('info', sink));
});
afterAll(() => t.close());

const sql = (text: string, params: unknown[] = []) => t.app.get(DataSource).query(text, params);

describe('secrets never reach the log', () => {
  it('logs the statement and error code of a failed write, never its parameter values', async () => {
    const [{ password_hash: oldHash }] = await sql(`SELECT password_hash FROM users WHERE id = $1`, [t.owner.id]);
    expect(oldHash).toMatch(/^\$argon2/);
    // A database failure on the write of a new password hash, reporting the new value in its detail
    // as a unique violation would ("Key (...)=(...) already exists").
    await sql(`CREATE FUNCTION test_fail_password() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'password write refused' USING ERRCODE = 'P0001', DETAIL = 'Key (password_hash)=(' || NEW.password_hash || ') already exists.'; END $$`);
    await sql(`CREATE TRIGGER test_fail_password BEFORE UPDATE OF password_hash ON users FOR EACH ROW EXECUTE FUNCTION test_fail_password()`);
    try {
      lines.length = 0;
      const newPassword = 'brand-New-Passphrase-77';
      const res = await t.patch('settings', { form: { old_password: OWNER_PASSWORD, new_password: newPassword } });
      expect(res.status).toBe(500);
      expect(res.body).toEqual({ result: 'error', msg: 'Internal server error', code: 'INTERNAL_SERVER_ERROR' });

      const log = lines.join('\n');
      const entry = lines.map((l) => JSON.parse(l)).find((l) => l.msg === 'unhandled error');
      expect(entry, log).toBeDefined();
      // What an operator needs: the statement (placeholders only) and the SQLSTATE.
      expect(entry.err.query).toMatch(/UPDATE users SET password_hash = \$4/);
      expect(entry.err.code).toBe('P0001');
      // What nobody may read: parameter values (old and new hash), the detail quoting them,
      // the password and the caller's credentials.
      expect(log).not.toContain(oldHash);
      expect(log).not.toContain('$argon2');
      expect(log).not.toContain(newPassword);
      expect(log).not.toContain(OWNER_PASSWORD);
      expect(log).not.toContain(t.owner.apiKey);
      expect(log).not.toContain(Buffer.from(`${t.owner.email}:${t.owner.apiKey}`).toString('base64'));
      expect(entry.err).not.toHaveProperty('parameters');
      expect(entry.err).not.toHaveProperty('detail');
      // Nothing was written.
      expect((await sql(`SELECT password_hash FROM users WHERE id = $1`, [t.owner.id]))[0].password_hash).toBe(oldHash);
    } finally {
      await sql(`DROP TRIGGER test_fail_password ON users`);
      await sql(`DROP FUNCTION test_fail_password()`);
    }
  });

  it('redacts credentials in the request URL of a logged error', async () => {
    await sql(`CREATE FUNCTION test_fail_key() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'no'; END $$`);
    await sql(`CREATE TRIGGER test_fail_key BEFORE UPDATE OF api_key ON users FOR EACH ROW EXECUTE FUNCTION test_fail_key()`);
    try {
      lines.length = 0;
      const res = await t.http
        .post('/api/v1/users/me/api_key/regenerate?api_key=query-secret-1&password=query-secret-2&key=query-secret-3')
        .auth(t.owner.email, t.owner.apiKey);
      expect(res.status).toBe(500);
      const log = lines.join('\n');
      expect(log).toContain('unhandled error');
      expect(log).toContain('/api/v1/users/me/api_key/regenerate');
      // The request's own info line (metrics.e2e-spec: its fields) is in the log read here.
      const line = lines.map((l) => JSON.parse(l)).find((l) => l.msg === 'request' && l.route === '/api/v1/users/me/api_key/regenerate');
      expect(line).toMatchObject({ level: 30, method: 'POST', status: 500, userId: t.owner.id });
      for (const s of ['query-secret-1', 'query-secret-2', 'query-secret-3', t.owner.apiKey]) expect(log).not.toContain(s);
      expect(log).not.toContain(Buffer.from(`${t.owner.email}:${t.owner.apiKey}`).toString('base64'));
    } finally {
      await sql(`DROP TRIGGER test_fail_key ON users`);
      await sql(`DROP FUNCTION test_fail_key()`);
    }
  });

  it('never logs a password-reset token or the new password: the request line names the route, an error URL is redacted', async () => {
    lines.length = 0;
    expect((await t.post('/accounts/password/reset/', { as: null, form: { email: t.owner.email } })).status).toBe(200);
    const [{ body }] = await sql(`SELECT body FROM email_outbox WHERE kind = 'password_reset' ORDER BY id DESC LIMIT 1`);
    const token = /\/accounts\/password\/reset\/([0-9a-f]{64})\//.exec(body)![1];
    const newPassword = 'Reset-log-Passphrase-88';
    const form = { new_password1: newPassword, new_password2: newPassword };
    expect((await t.get(`/accounts/password/reset/${token}/`, { as: null })).status).toBe(200);
    await sql(`CREATE FUNCTION test_fail_reset() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'no'; END $$`);
    await sql(`CREATE TRIGGER test_fail_reset BEFORE UPDATE OF password_hash ON users FOR EACH ROW EXECUTE FUNCTION test_fail_reset()`);
    try {
      expect((await t.post(`/accounts/password/reset/${token}/`, { as: null, form })).status).toBe(500);
    } finally {
      await sql(`DROP TRIGGER test_fail_reset ON users`);
      await sql(`DROP FUNCTION test_fail_reset()`);
    }
    const log = lines.join('\n');
    const entries = lines.map((l) => JSON.parse(l));
    expect(entries.find((l) => l.msg === 'unhandled error')).toMatchObject({ url: '/accounts/password/reset/[Redacted]/' });
    expect(entries.filter((l) => l.msg === 'request' && l.route === '/accounts/password/reset/:token')).toHaveLength(2);
    expect(log).not.toContain(token);
    expect(log).not.toContain(newPassword);
  });

  it('redacts Authorization, password, api_key and key wherever request data is logged', () => {
    const out: string[] = [];
    const logger = createLogger(
      'info',
      new Writable({
        write(chunk: Buffer, _enc, done) {
          out.push(chunk.toString());
          done();
        },
      }),
    );
    logger.info(
      {
        req: { method: 'POST', url: '/x', headers: { authorization: 'Basic c2VjcmV0LWE=', Authorization: 'Basic c2VjcmV0LWI=' } },
        body: { password: 'secret-c', api_key: 'secret-d', key: 'secret-e', content: 'hello' },
        password: 'secret-f',
      },
      'request',
    );
    const text = out.join('');
    for (const s of ['c2VjcmV0LWE=', 'c2VjcmV0LWI=', 'secret-c', 'secret-d', 'secret-e', 'secret-f']) expect(text).not.toContain(s);
    expect(text).toContain('hello');
  });
});
