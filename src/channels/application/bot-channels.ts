import { pairKey } from '@app/domain/channels';
import { Injectable } from '@nestjs/common';
import type { Tx } from '../../shared/application/unit-of-work.js';
import { type BotChannel, BotChannels } from '../../users/index.js';

/** The channels a bot's default-channel settings name, for the users context. */
@Injectable()
export class ChannelsForBots extends BotChannels {
  async accessibleByName(tx: Tx, realmId: number, user: { id: number; isGuest: boolean }, name: string): Promise<BotChannel | null> {
    const channel = (await tx.channels.findByNames(realmId, [name])).find((c) => !c.isArchived);
    if (channel === undefined) return null;
    const visible =
      (!channel.inviteOnly && !user.isGuest) || (await tx.subscriptions.records([user.id], [channel.id])).get(pairKey(user.id, channel.id))?.active === true;
    return visible ? { id: channel.id, name: channel.name, inviteOnly: channel.inviteOnly } : null;
  }

  async byIds(tx: Tx, realmId: number, ids: readonly number[]): Promise<Map<number, BotChannel>> {
    const channels = await tx.channelQueries.channelsByIds(realmId, ids);
    return new Map(channels.map((c) => [c.id, { id: c.id, name: c.name, inviteOnly: c.inviteOnly }]));
  }
}
