import { channelAlreadyExists } from '@app/domain/channels';
import type { TransactionContribution } from '../../shared/persistence/transaction-contribution.js';
import { TypeOrmChannelQueries, TypeOrmChannelRepository } from './typeorm-channel.repository.js';

export const channelsTransaction: TransactionContribution<'channels' | 'channelQueries'> = {
  repositories: (em) => ({ channels: new TypeOrmChannelRepository(em), channelQueries: TypeOrmChannelQueries.within(em) }),
  uniqueViolations: { channels_realm_name_key: channelAlreadyExists },
};
