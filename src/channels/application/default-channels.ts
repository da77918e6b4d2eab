import { joinChannels } from '@app/domain/channels';
import { Injectable } from '@nestjs/common';
import type { Tx } from '../../shared/application/unit-of-work.js';
import { NewUserChannels } from '../../users/index.js';
import { subscriptionChangeEvents } from './channel.events.js';

/** New human users join the organization's default channels (archived ones are not default). */
@Injectable()
export class DefaultChannelSubscriptions extends NewUserChannels {
  async subscribeToDefaultChannels(tx: Tx, realmId: number, userId: number): Promise<void> {
    const channelIds = [...(await tx.channels.defaultChannelIds(realmId))];
    // A user who just joined has no subscription and uses no colour yet.
    const { joined } = joinChannels([userId], channelIds, new Map(), new Map(), new Map());
    await tx.subscriptions.save(realmId, joined);
    tx.afterCommit(await subscriptionChangeEvents(tx, realmId, joined.flatMap((s) => s.pullEvents()), new Map()));
  }
}
