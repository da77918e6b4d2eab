import { domainMatches, assertEmailAllowed, emailPolicyViolation } from './email-policy.js';
import { emailDomain, isValidEmail } from './email.js';

describe('isValidEmail', () => {
  it.each(['a@example.com', 'first.last+tag@sub.example.co', 'x@localhost', 'u@[127.0.0.1]', 'ü@bücher.de'.replace('ü@', 'u@')])(
    'accepts %s',
    (e) => expect(isValidEmail(e)).toBe(true),
  );
  it.each(['broken', '@example.com', 'a@', 'a@b', 'a..b@example.com', 'a@127.0.0.1', 'a b@example.com', 'a@-x.com'])(
    'rejects %s',
    (e) => expect(isValidEmail(e)).toBe(false),
  );
  it('lower-cases the domain', () => expect(emailDomain('A@Example.COM')).toBe('example.com'));
});

describe('email policy', () => {
  const open = { emailsRestrictedToDomains: false, disallowDisposableEmailAddresses: true, domains: [] };
  const disposable = (d: string) => d === 'mailinator.com';
  it('refuses disposable domains unless allowed', () => {
    expect(() => assertEmailAllowed('a@mailinator.com', open, disposable)).toThrow(
      'Disposable email addresses are not allowed in this organization',
    );
    assertEmailAllowed('a@mailinator.com', { ...open, disallowDisposableEmailAddresses: false }, disposable);
  });
  it('restricts to the organization domains, subdomains when allowed', () => {
    const rules = {
      emailsRestrictedToDomains: true,
      disallowDisposableEmailAddresses: true,
      domains: [{ domain: 'acme.com', allowSubdomains: true }, { domain: 'x.org', allowSubdomains: false }],
    };
    assertEmailAllowed('a@acme.com', rules, disposable);
    assertEmailAllowed('a@b.c.acme.com', rules, disposable);
    expect(() => assertEmailAllowed('a@sub.x.org', rules, disposable)).toThrow("Email 'a@sub.x.org' not allowed in this organization");
    expect(() => assertEmailAllowed('a+b@acme.com', rules, disposable)).toThrow('Email addresses containing + are not allowed.');
    expect(domainMatches('notacme.com', rules.domains)).toBe(false);
  });
});

describe('email policy violations', () => {
  const disposable = (d: string) => d === 'mailinator.com';
  it('names the rule an address breaks', () => {
    const open = { emailsRestrictedToDomains: false, disallowDisposableEmailAddresses: true, domains: [] };
    const closed = { emailsRestrictedToDomains: true, disallowDisposableEmailAddresses: true, domains: [{ domain: 'acme.com', allowSubdomains: false }] };
    expect(emailPolicyViolation('a@mailinator.com', open, disposable)).toBe('disposable');
    expect(emailPolicyViolation('a+b@x.com', open, disposable)).toBeNull();
    expect(emailPolicyViolation('a+b@acme.com', closed, disposable)).toBe('contains_plus');
    expect(emailPolicyViolation('a@ACME.com', closed, disposable)).toBeNull();
    expect(emailPolicyViolation('a@mailinator.com', closed, disposable)).toBe('domain_not_allowed');
  });
});
