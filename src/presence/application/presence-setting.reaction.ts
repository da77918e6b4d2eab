import { Injectable } from '@nestjs/common';
import type { Tx } from '../../shared/application/unit-of-work.js';
import { PresenceSettingEffects } from '../../users/index.js';
import { PresenceService } from './presence.service.js';

/** The users context's PresenceSettingEffects: a presence_enabled change updates the user's presence at once. */
@Injectable()
export class PresenceSettingReaction extends PresenceSettingEffects {
  constructor(private readonly presence: PresenceService) {
    super();
  }

  presenceEnabledChanged(tx: Tx, realmId: number, userId: number, enabled: boolean): Promise<void> {
    return this.presence.presenceSettingChanged(tx, realmId, userId, enabled);
  }
}
