import { channelAlreadyExists, defaultChannelGroupExists } from '@app/domain/channels';
import type { TransactionContribution } from '../../shared/persistence/transaction-contribution.js';
import { TypeOrmChannelFolderRepository } from './typeorm-channel-folder.repository.js';
import { TypeOrmDefaultChannelGroupRepository } from './typeorm-default-channel-group.repository.js';
import { TypeOrmChannelQueries, TypeOrmChannelRepository } from './typeorm-channel.repository.js';
import { TypeOrmSubscriptionRepository } from './typeorm-subscription.repository.js';

export const channelsTransaction: TransactionContribution<'channels' | 'subscriptions' | 'channelFolders' | 'channelQueries' | 'defaultChannelGroups'> = {
  repositories: (em) => ({
    channels: new TypeOrmChannelRepository(em),
    subscriptions: new TypeOrmSubscriptionRepository(em),
    channelFolders: new TypeOrmChannelFolderRepository(em),
    channelQueries: TypeOrmChannelQueries.within(em),
    defaultChannelGroups: new TypeOrmDefaultChannelGroupRepository(em),
  }),
  uniqueViolations: { channels_realm_name_key: channelAlreadyExists, default_channel_groups_realm_name_key: defaultChannelGroupExists },
};
