import { domainAlreadyAdded, domainNotFound, liftsDomainRestriction, parseEmailDomain } from '@app/domain/realm';
import type { Actor } from '@app/domain/users';
import { Injectable } from '@nestjs/common';
import { UnitOfWork } from '../../shared/application/unit-of-work.js';
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
      return { id: await tx.realms.addDomain(actor.realmId, domain, allowSubdomains), domain };
    });
  }

  /** PATCH /realm/domains/{domain}: the path names the domain exactly as stored. */
  async changeDomain(actor: Actor, domain: string, allowSubdomains: boolean): Promise<void> {
    await this.uow.run(async (tx) => {
      const found = await tx.realms.findDomain(actor.realmId, domain);
      if (found === null) throw domainNotFound(domain);
      await tx.realms.setDomainAllowSubdomains(found.id, allowSubdomains);
    });
  }

  /** DELETE /realm/domains/{domain}; removing the last one lifts "restrict emails to domains". */
  async removeDomain(actor: Actor, domain: string): Promise<void> {
    await this.uow.run(async (tx) => {
      const realm = await tx.realms.getForUpdate(actor.realmId);
      const found = await tx.realms.findDomain(actor.realmId, domain);
      if (found === null) throw domainNotFound(domain);
      await tx.realms.removeDomain(found.id);
      if (liftsDomainRestriction(realm.emailsRestrictedToDomains, await tx.realms.countDomains(actor.realmId))) {
        await tx.realms.updateProperties(actor.realmId, { emailsRestrictedToDomains: false });
      }
    });
  }
}
