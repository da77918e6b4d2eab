import { classify } from '../../src/email/infrastructure/smtp-mail-transport.js';
import { ServerConfig } from '../../src/shared/config/server-config.js';

describe('SMTP outcomes', () => {
  it('retries 4xx answers and missing answers, gives up on 5xx', () => {
    expect(classify({ responseCode: 451, response: '451 4.7.1 Greylisted' })).toEqual({ kind: 'temporary', error: '451 4.7.1 Greylisted' });
    expect(classify({ responseCode: 421, response: '421 Too busy', code: 'ECONNECTION' })).toEqual({ kind: 'temporary', error: '421 Too busy' });
    expect(classify({ responseCode: 550, response: '550 5.1.1 No such user' })).toEqual({ kind: 'permanent', error: '550 5.1.1 No such user' });
    expect(classify({ responseCode: 535, response: '535 Authentication failed', code: 'EAUTH' })).toMatchObject({ kind: 'permanent' });
    expect(classify({ code: 'ESOCKET', message: 'connect ECONNREFUSED 127.0.0.1:25' })).toEqual({
      kind: 'temporary',
      error: 'ESOCKET: connect ECONNREFUSED 127.0.0.1:25',
    });
    expect(classify({ code: 'ETIMEDOUT', message: 'Greeting never received' })).toMatchObject({ kind: 'temporary' });
    expect(classify({ code: 'EENVELOPE', message: 'No recipients defined' })).toEqual({ kind: 'permanent', error: 'EENVELOPE: No recipients defined' });
  });
});

describe('email settings', () => {
  it('leaves email unconfigured without SMTP_URL and sends from noreply@ the bot domain', () => {
    const c = ServerConfig.fromEnv({ EXTERNAL_URL: 'https://chat.example.org' });
    expect(c.emailConfigured).toBe(false);
    expect(c.emailFrom).toBe('noreply@chat.example.org');
    expect(ServerConfig.fromEnv({ EXTERNAL_URL: 'http://127.0.0.1:9991' }).emailFrom).toBe('noreply@localhost');
    expect(c).toMatchObject({ emailPollIntervalMs: 5000, emailMaxAttempts: 5, emailRetryBaseMs: 60_000, emailSendTimeoutMs: 30_000 });
  });

  it('takes smtp:// and smtps:// URLs and a From with a display name', () => {
    const c = ServerConfig.fromEnv({ SMTP_URL: 'smtps://user%40x:p%3Ass@mail.example.org:465', EMAIL_FROM: 'Chat <chat@example.org>' });
    expect(c.emailConfigured).toBe(true);
    expect(c.emailFrom).toBe('Chat <chat@example.org>');
  });

  it.each([
    [{ SMTP_URL: 'http://mail.example.org' }, 'SMTP_URL must start with smtp:// or smtps://'],
    [{ SMTP_URL: 'not a url' }, 'SMTP_URL is not a URL'],
    [{ EMAIL_FROM: 'nobody' }, 'EMAIL_FROM is not an email address'],
    [{ EMAIL_MAX_ATTEMPTS: '0' }, 'EMAIL_MAX_ATTEMPTS must be at least 1'],
    [{ EMAIL_POLL_INTERVAL_MS: '-1' }, 'EMAIL_POLL_INTERVAL_MS must not be negative'],
    [{ EMAIL_SEND_TIMEOUT_MS: '0' }, 'EMAIL_SEND_TIMEOUT_MS must be positive'],
  ])('refuses %o', (env, message) => {
    expect(() => ServerConfig.fromEnv(env)).toThrow(message);
  });
});
