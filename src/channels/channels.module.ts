import { Module } from '@nestjs/common';
import { ChannelReadsService } from './application/channel-reads.service.js';
import { ChannelQueries } from './application/channel.ports.js';
import { ChannelsService } from './application/channels.service.js';
import { ChannelGroupUsageOfChannels, DefaultChannelSubscriptions, InitialChannels } from './application/default-channels.js';
import { ChannelsForRealmSettings } from './application/realm-channel-directory.js';
import { SubscriptionNotices } from './application/subscription-notices.js';
import { ChannelsForBots } from './application/bot-channels.js';
import { SubscriptionsService } from './application/subscriptions.service.js';
import { ChannelsController } from './http/channels.controller.js';
import { DefaultChannelGroupsController } from './http/default-channel-groups.controller.js';
import { DefaultChannelGroupsService } from './application/default-channel-groups.service.js';
import { TypeOrmChannelQueries } from './persistence/typeorm-channel.repository.js';

@Module({
  controllers: [ChannelsController, DefaultChannelGroupsController],
  providers: [
    ChannelsService,
    SubscriptionsService,
    DefaultChannelSubscriptions,
    InitialChannels,
    ChannelGroupUsageOfChannels,
    ChannelsForRealmSettings,
    SubscriptionNotices,
    ChannelsForBots,
    ChannelReadsService,
    DefaultChannelGroupsService,
    { provide: ChannelQueries, useClass: TypeOrmChannelQueries },
  ],
  exports: [ChannelQueries, DefaultChannelSubscriptions, InitialChannels, ChannelGroupUsageOfChannels, ChannelsForRealmSettings, ChannelsForBots],
})
export class ChannelsModule {}
