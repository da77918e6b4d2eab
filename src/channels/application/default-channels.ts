import { pickColors } from '@app/domain/channels';
import { Injectable } from '@nestjs/common';
import type { Tx } from '../../shared/application/unit-of-work.js';
import { NewUserChannels } from '../../users/index.js';
import { subscriptionAddEvents } from './channel.events.js';

/** New human users join the organization's default channels (archived ones are not default). */
@Injectable()
export class DefaultChannelSubscriptions extends NewUserChannels {
  async subscribeToDefaultChannels(tx: Tx, realmId: number, userId: number): Promise<void> {
    const channelIds = [...(await tx.channels.defaultChannelIds(realmId))];
    const colors = pickColors(new Set(), channelIds, new Map());
    const rows = channelIds.map((channelId) => ({ userId, channelId, color: colors.get(channelId)! }));
    await tx.channels.subscribe(realmId, rows);
    tx.afterCommit(await subscriptionAddEvents(tx, realmId, rows));
  }
}
