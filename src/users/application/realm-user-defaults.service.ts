import { type Actor, checkSettingValues, realmDefaultChanges, type UserSettingName, type UserSettingValue } from '@app/domain/users';
import { Injectable } from '@nestjs/common';
import { UnitOfWork } from '../../shared/application/unit-of-work.js';
import { realmUserDefaultEvents } from './realm-user-defaults.views.js';

/**
 * PATCH /realm/user_settings_defaults (Zulip's update_realm_user_settings_defaults; the caller
 * is an administrator): the sound and batching period checked first, then every changed default
 * written in one transaction, an event per change after COMMIT.
 */
@Injectable()
export class RealmUserDefaultsService {
  constructor(private readonly uow: UnitOfWork) {}

  async updateDefaults(actor: Actor, requested: Partial<Record<UserSettingName, UserSettingValue>>): Promise<void> {
    checkSettingValues(requested);
    await this.uow.run(async (tx) => {
      const current = await tx.realmUserDefaults.getForUpdate(actor.realmId);
      const changes = realmDefaultChanges(current, requested);
      if (changes.length === 0) return;
      await tx.realmUserDefaults.apply(actor.realmId, changes);
      tx.afterCommit(realmUserDefaultEvents(actor.realmId, changes));
    });
  }
}
