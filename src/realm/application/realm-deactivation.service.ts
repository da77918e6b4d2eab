import { checkDeletionDelayDays, scheduledDeletionDate } from '@app/domain/realm';
import type { Actor } from '@app/domain/users';
import { Injectable } from '@nestjs/common';
import { toEveryone } from '../../shared/application/client-event.js';
import { Clock } from '../../shared/application/clock.js';
import { UnitOfWork } from '../../shared/application/unit-of-work.js';
import { localizedDate, realmDeactivatedEmail } from './realm-emails.js';
import './realm-lifecycle.ports.js';

/**
 * POST /realm/deactivate (Zulip's deactivate_realm and do_deactivate_realm; the caller is an
 * owner). In one transaction: the organization is marked deactivated (its data's deletion
 * scheduled when asked), its users' browser sessions end (they land on the login page, which
 * tells them), every owner is emailed, and the `realm` `deactivated` event flushes the open
 * long-polls; from then on every request of the organization is refused as deactivated (its
 * queues included). The users themselves stay as they are, for a reactivation.
 */
@Injectable()
export class RealmDeactivationService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  async deactivateRealm(actor: Actor, deletionDelayDays: number | null): Promise<void> {
    checkDeletionDelayDays(deletionDelayDays);
    const now = this.clock.now();
    const deletion = scheduledDeletionDate(now, deletionDelayDays);
    await this.uow.run(async (tx) => {
      if (!(await tx.realmLifecycle.deactivate(actor.realmId, deletion))) return;
      const realm = await tx.realms.get(actor.realmId);
      const owners = await tx.realmLifecycle.activeHumanOwners(actor.realmId);
      const byName = owners.find((o) => o.userId === actor.userId)?.fullName ?? null;
      for (const owner of owners) {
        const email = realmDeactivatedEmail({
          realmId: actor.realmId,
          to: owner.deliveryEmail,
          realmName: realm.name,
          deactivatedBy: owner.userId === actor.userId ? null : byName,
          date: localizedDate(now, owner.timezone),
          deletionDate: deletion === null ? null : localizedDate(deletion, owner.timezone),
        });
        await tx.emails.send(email, now);
      }
      tx.afterCommit(toEveryone(actor.realmId, [{ type: 'realm', op: 'deactivated', realm_id: actor.realmId }]));
    });
  }
}
