import { Injectable } from '@nestjs/common';
import type { Tx } from '../../shared/application/unit-of-work.js';
import { WaitingPeriodEffects } from '../../realm/index.js';

/** A new waiting period re-decides who is in role:fullmembers (Zulip's update_users_in_full_members_system_group). */
@Injectable()
export class FullMembersRefresh extends WaitingPeriodEffects {
  async changed(tx: Tx, realmId: number, fullMemberCutoff: Date): Promise<void> {
    await tx.groups.refreshFullMembers(realmId, fullMemberCutoff);
  }
}
