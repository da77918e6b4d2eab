import { assertValidSubdomain, organizationName } from './organization.js';

describe('a new organization', () => {
  it('takes lowercase subdomains of letters, digits and inner hyphens, up to 40 characters', () => {
    for (const ok of ['acme', 'a', 'team-42', 'x'.repeat(40)]) expect(() => assertValidSubdomain(ok)).not.toThrow();
    for (const bad of ['', 'Acme', '-acme', 'acme-', 'a_b', 'a.b', 'x'.repeat(41)]) {
      expect(() => assertValidSubdomain(bad)).toThrow("Subdomains can only have lowercase letters, numbers, and '-'s");
    }
  });

  it('refuses the subdomains Zulip keeps for itself', () => {
    for (const reserved of ['www', 'api', 'zulip', 'svc']) expect(() => assertValidSubdomain(reserved)).toThrow(`Subdomain '${reserved}' is reserved`);
  });

  it('trims its name and wants 1 to 40 characters', () => {
    expect(organizationName('  Acme  ')).toBe('Acme');
    for (const bad of ['', '   ', 'x'.repeat(41)]) expect(() => organizationName(bad)).toThrow('Organization names must have 1 to 40 characters');
  });
});
