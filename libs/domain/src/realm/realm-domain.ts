import { badRequest, DomainError } from '../shared/domain-error.js';
import { codePointLength } from '../shared/text.js';

/** Zulip's validate_domain: the reason a domain is refused, or null. */
export function domainProblem(domain: string): string | null {
  if (domain.length === 0) return "Domain can't be empty.";
  if (!domain.includes('.')) return 'Domain must have at least one dot (.)';
  if (codePointLength(domain) > 255) return 'Domain is too long';
  if (domain.startsWith('.') || domain.endsWith('.')) return 'Domain cannot start or end with a dot (.)';
  for (const label of domain.split('.')) {
    if (label === '') return "Consecutive '.' are not allowed.";
    if (label.startsWith('-') || label.endsWith('-')) return "Subdomains cannot start or end with a '-'.";
    if (!/^[a-z0-9-]*$/.test(label)) return "Domain can only have letters, numbers, '.' and '-'s.";
  }
  return null;
}

/** An allowed email domain as POST /realm/domains takes it: trimmed, lower-cased, valid. */
export function parseEmailDomain(raw: string): string {
  const domain = raw.trim().toLowerCase();
  const problem = domainProblem(domain);
  if (problem !== null) throw badRequest(`Invalid domain: ${problem}`);
  return domain;
}

export const domainAlreadyAdded = (domain: string): DomainError =>
  badRequest(`The domain ${domain} is already a part of your organization.`);

export const domainNotFound = (domain: string): DomainError => badRequest(`No entry found for domain ${domain}.`);

/**
 * Restricting sign-ups to the allowed domains means nothing without any domain, so removing
 * the last one lifts the restriction (Zulip's do_remove_realm_domain).
 */
export function liftsDomainRestriction(emailsRestrictedToDomains: boolean, remainingDomains: number): boolean {
  return emailsRestrictedToDomains && remainingDomains === 0;
}
