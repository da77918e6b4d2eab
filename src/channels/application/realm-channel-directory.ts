import { Injectable } from '@nestjs/common';
import { RealmChannelDirectory } from '../../realm/index.js';
import type { Tx } from '../../shared/application/unit-of-work.js';

/** The realm's view of its channels, for the channel-valued organization settings. */
@Injectable()
export class ChannelsForRealmSettings extends RealmChannelDirectory {
  activeChannelIds(tx: Tx, realmId: number, channelIds: readonly number[]): Promise<Set<number>> {
    return tx.channels.activeChannelIds(realmId, channelIds);
  }

  async publicChannelIds(tx: Tx, realmId: number, channelIds: readonly number[]): Promise<Set<number>> {
    return new Set((await tx.channels.findByIds(realmId, channelIds)).filter((c) => !c.inviteOnly).map((c) => c.id));
  }
}
