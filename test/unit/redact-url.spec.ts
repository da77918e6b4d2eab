import { redactUrl } from '../../src/shared/logging/logger.js';

describe('redactUrl', () => {
  it('hides the secret segment of confirmation, reset and sign-up links', () => {
    const key = 'abcdefghijklmnopqrstuvwx';
    expect(redactUrl(`/accounts/do_confirm/${key}`)).toBe('/accounts/do_confirm/[Redacted]');
    expect(redactUrl(`/join/${key}/`)).toBe('/join/[Redacted]/');
    expect(redactUrl(`/accounts/confirm_new_email/${key}/`)).toBe('/accounts/confirm_new_email/[Redacted]/');
    expect(redactUrl(`/accounts/password/reset/${'0'.repeat(64)}/`)).toBe('/accounts/password/reset/[Redacted]/');
    expect(redactUrl('/api/v1/invites/multiuse')).toBe('/api/v1/invites/multiuse');
  });
});
