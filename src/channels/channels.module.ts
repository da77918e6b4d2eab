import { Module } from '@nestjs/common';
import { UsersModule } from '../users/users.module.js';
import { ChannelReadsService } from './application/channel-reads.service.js';
import { ChannelQueries } from './application/channel.ports.js';
import { ChannelsService } from './application/channels.service.js';
import { ChannelsController } from './http/channels.controller.js';
import { TypeOrmChannelQueries } from './persistence/typeorm-channel.repository.js';

@Module({
  imports: [UsersModule],
  controllers: [ChannelsController],
  providers: [ChannelsService, ChannelReadsService, { provide: ChannelQueries, useClass: TypeOrmChannelQueries }],
  exports: [ChannelQueries],
})
export class ChannelsModule {}
