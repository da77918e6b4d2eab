import type { LinkifierRecord, PlaygroundRecord, RealmDomainRecord } from './realm.ports.js';

/** A linkifier as GET /realm/linkifiers and register's realm_linkifiers show it (Zulip's LinkifierDict). */
export const presentLinkifier = (l: LinkifierRecord) => ({
  pattern: l.pattern,
  url_template: l.urlTemplate,
  id: l.id,
  example_input: l.exampleInput,
  reverse_template: l.reverseTemplate,
  alternative_url_templates: l.alternativeUrlTemplates,
});

export const presentPlayground = (p: PlaygroundRecord) => ({
  id: p.id,
  name: p.name,
  pygments_language: p.pygmentsLanguage,
  url_template: p.urlTemplate,
});

export const presentDomain = (d: RealmDomainRecord) => ({ domain: d.domain, allow_subdomains: d.allowSubdomains });
