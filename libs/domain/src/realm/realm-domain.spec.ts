import { domainProblem, liftsDomainRestriction, parseEmailDomain } from './realm-domain.js';

describe('allowed email domains', () => {
  it('trims and lower-cases valid domains', () => {
    expect(parseEmailDomain('  Acme.COM ')).toBe('acme.com');
    expect(parseEmailDomain('x-x.y.3.z')).toBe('x-x.y.3.z');
  });

  it.each([
    ['', "Domain can't be empty."],
    ['   ', "Domain can't be empty."],
    ['test', 'Domain must have at least one dot (.)'],
    [`${'a'.repeat(255)}.com`, 'Domain is too long'],
    ['t.', 'Domain cannot start or end with a dot (.)'],
    ['test.', 'Domain cannot start or end with a dot (.)'],
    ['.com', 'Domain cannot start or end with a dot (.)'],
    ['test...com', "Consecutive '.' are not allowed."],
    ['-test.com', "Subdomains cannot start or end with a '-'."],
    ['test-.com', "Subdomains cannot start or end with a '-'."],
    ['test.-domain.com', "Subdomains cannot start or end with a '-'."],
    ['test_domain.com', "Domain can only have letters, numbers, '.' and '-'s."],
    ['tést.com', "Domain can only have letters, numbers, '.' and '-'s."],
  ])('refuses %j: %s', (raw, reason) => {
    expect(() => parseEmailDomain(raw)).toThrow(`Invalid domain: ${reason}`);
  });

  it('checks in Zulip’s order', () => {
    expect(domainProblem('-x')).toBe('Domain must have at least one dot (.)');
    expect(domainProblem('.-x_')).toBe('Domain cannot start or end with a dot (.)');
    expect(domainProblem('a..-b')).toBe("Consecutive '.' are not allowed.");
  });

  it('lifts the restriction when the last domain goes', () => {
    expect(liftsDomainRestriction(true, 0)).toBe(true);
    expect(liftsDomainRestriction(true, 1)).toBe(false);
    expect(liftsDomainRestriction(false, 0)).toBe(false);
  });
});
