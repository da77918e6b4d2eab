import { badRequest } from '../shared/domain-error.js';
import { emailDomain } from './email.js';

export interface RealmEmailRules {
  readonly emailsRestrictedToDomains: boolean;
  readonly disallowDisposableEmailAddresses: boolean;
  readonly domains: readonly { domain: string; allowSubdomains: boolean }[];
}

/** Why the organization refuses an address (Zulip's get_realm_email_validator), or null. */
export type EmailPolicyViolation = 'disposable' | 'contains_plus' | 'domain_not_allowed';

export function emailPolicyViolation(
  email: string,
  rules: RealmEmailRules,
  isDisposable: (domain: string) => boolean,
): EmailPolicyViolation | null {
  const domain = emailDomain(email);
  if (!rules.emailsRestrictedToDomains) {
    return rules.disallowDisposableEmailAddresses && isDisposable(domain) ? 'disposable' : null;
  }
  if (email.slice(0, email.lastIndexOf('@')).includes('+')) return 'contains_plus';
  return domainMatches(domain, rules.domains) ? null : 'domain_not_allowed';
}

/** Zulip's email_allowed_for_realm. `isDisposable` answers from the disposable-domain list. */
export function assertEmailAllowed(email: string, rules: RealmEmailRules, isDisposable: (domain: string) => boolean): void {
  switch (emailPolicyViolation(email, rules, isDisposable)) {
    case 'disposable':
      throw badRequest('Disposable email addresses are not allowed in this organization');
    case 'contains_plus':
      throw badRequest('Email addresses containing + are not allowed.');
    case 'domain_not_allowed':
      throw badRequest(`Email '${email}' not allowed in this organization`);
    case null:
      return;
  }
}

/** Exact match, or a suffix on a label boundary of a domain that allows subdomains. */
export function domainMatches(domain: string, domains: RealmEmailRules['domains']): boolean {
  if (domains.some((d) => d.domain === domain)) return true;
  const labels = domain.split('.');
  for (let i = 1; i < labels.length; i++) {
    const suffix = labels.slice(i).join('.');
    if (domains.some((d) => d.allowSubdomains && d.domain === suffix)) return true;
  }
  return false;
}
