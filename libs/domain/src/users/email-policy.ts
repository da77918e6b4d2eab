import { badRequest } from '../shared/domain-error.js';
import { emailDomain } from './email.js';

export interface RealmEmailRules {
  readonly emailsRestrictedToDomains: boolean;
  readonly disallowDisposableEmailAddresses: boolean;
  readonly domains: readonly { domain: string; allowSubdomains: boolean }[];
}

/** Zulip's email_allowed_for_realm. `isDisposable` answers from the disposable-domain list. */
export function assertEmailAllowed(email: string, rules: RealmEmailRules, isDisposable: (domain: string) => boolean): void {
  const domain = emailDomain(email);
  if (!rules.emailsRestrictedToDomains) {
    if (rules.disallowDisposableEmailAddresses && isDisposable(domain)) {
      throw badRequest('Disposable email addresses are not allowed in this organization');
    }
    return;
  }
  if (email.slice(0, email.lastIndexOf('@')).includes('+')) {
    throw badRequest('Email addresses containing + are not allowed.');
  }
  if (!domainMatches(domain, rules.domains)) throw badRequest(`Email '${email}' not allowed in this organization`);
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
