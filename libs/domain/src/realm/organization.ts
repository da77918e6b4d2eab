import { badRequest } from '../shared/index.js';

/** Zulip's subdomain rule: lowercase letters, digits and inner hyphens, at most 40 characters. */
const SUBDOMAIN = /^[a-z0-9]([a-z0-9-]{0,38}[a-z0-9])?$/;
/** Subdomains Zulip keeps for itself (a subset of its RESERVED_SUBDOMAINS). */
const RESERVED_SUBDOMAINS = new Set(['www', 'api', 'admin', 'static', 'help', 'docs', 'mail', 'email', 'root', 'zulip', 'svc']);

/** A new organization's subdomain, well-formed and not reserved (whether it is taken is the caller's lookup). */
export function assertValidSubdomain(subdomain: string): void {
  if (!SUBDOMAIN.test(subdomain)) {
    throw badRequest("Subdomains can only have lowercase letters, numbers, and '-'s, and must start and end with a letter or number.");
  }
  if (RESERVED_SUBDOMAINS.has(subdomain)) throw badRequest(`Subdomain '${subdomain}' is reserved`);
}

/** A new organization's name, trimmed: 1 to 40 characters. */
export function organizationName(raw: string): string {
  const name = raw.trim();
  if (name === '' || name.length > 40) throw badRequest('Organization names must have 1 to 40 characters');
  return name;
}
