import { domainAlreadyAdded, domainNotFound, liftsDomainRestriction, parseEmailDomain } from '@app/domain/realm';
import type { Actor } from '@app/domain/users';
import { Injectable } from '@nestjs/common';
import type { ClientEvent } from '../../shared/application/client-event.js';
import { UnitOfWork } from '../../shared/application/unit-of-work.js';
import { realmPropertyEvent } from './realm.events.js';
import { toEveryone } from '../../shared/application/client-event.js';
import { type RealmDomainRecord, RealmQueries } from './realm.ports.js';

/** Allowed email domains (spec 22 §3); organization owners change them. */
@Injectable()
export class RealmDomainsService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly queries: RealmQueries,
  ) {}

  listDomains(actor: Actor): Promise<RealmDomainRecord[]> {
    return this.queries.domains(actor.realmId);
  }

  /** POST /realm/domains: returns the new row's id and the domain as stored. */
  async addDomain(actor: Actor, rawDomain: string, allowSubdomains: boolean): Promise<{ id: number; domain: string }> {
    const domain = parseEmailDomain(rawDomain);
    return this.uow.run(async (tx) => {
      if ((await tx.realms.findDomain(actor.realmId, domain)) !== null) throw domainAlreadyAdded(domain);
      const id = await tx.realms.addDomain(actor.realmId, domain, allowSubdomains);
      const event = { type: 'realm_domains', op: 'add', realm_domain: { domain, allow_subdomains: allowSubdomains } };
      tx.afterCommit(toEveryone(actor.realmId, [event]));
      return { id, domain };
    });
  }

  /** PATCH /realm/domains/{domain}: the path names the domain exactly as stored. */
  async changeDomain(actor: Actor, domain: string, allowSubdomains: boolean): Promise<void> {
    await this.uow.run(async (tx) => {
      const found = await tx.realms.findDomain(actor.realmId, domain);
      if (found === null) throw domainNotFound(domain);
      await tx.realms.setDomainAllowSubdomains(found.id, allowSubdomains);
      const event = { type: 'realm_domains', op: 'change', realm_domain: { domain: found.domain, allow_subdomains: allowSubdomains } };
      tx.afterCommit(toEveryone(actor.realmId, [event]));
    });
  }

  /** DELETE /realm/domains/{domain}; removing the last one lifts "restrict emails to domains". */
  async removeDomain(actor: Actor, domain: string): Promise<void> {
    await this.uow.run(async (tx) => {
      const realm = await tx.realms.getForUpdate(actor.realmId);
      const found = await tx.realms.findDomain(actor.realmId, domain);
      if (found === null) throw domainNotFound(domain);
      await tx.realms.removeDomain(found.id);
      // As Zulip's do_remove_realm_domain: the setting's `realm` event comes before the removal's.
      const events: ClientEvent['event'][] = [];
      if (liftsDomainRestriction(realm.emailsRestrictedToDomains, await tx.realms.countDomains(actor.realmId))) {
        await tx.realms.updateProperties(actor.realmId, { emailsRestrictedToDomains: false });
        events.push(realmPropertyEvent('emailsRestrictedToDomains', false));
      }
      events.push({ type: 'realm_domains', op: 'remove', domain: found.domain });
      tx.afterCommit(toEveryone(actor.realmId, events));
    });
  }
}
