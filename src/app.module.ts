import { type DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_INTERCEPTOR } from '@nestjs/core';
import type { Logger } from 'pino';
import { ChannelsModule } from './channels/channels.module.js';
import { DraftsModule } from './drafts/drafts.module.js';
import { EmojiModule } from './emoji/emoji.module.js';
import { EventsModule } from './events/events.module.js';
import { MessagesModule } from './messages/messages.module.js';
import { PushModule } from './push/push.module.js';
import { InvitationsModule } from './invitations/invitations.module.js';
import { RealmModule } from './realm/realm.module.js';
import { ServerModule } from './server/server.module.js';
import { ApiAuthGuard, RateLimitGuard, RequirementsGuard } from './shared/auth/guards.js';
import { ServerConfig } from './shared/config/server-config.js';
import { AllExceptionsFilter } from './shared/http/all-exceptions.filter.js';
import { EnvelopeInterceptor } from './shared/http/envelope.interceptor.js';
import { SharedModule } from './shared/shared.module.js';
import { UsersModule } from './users/users.module.js';

@Module({})
export class AppModule {
  /** Guards run in this order: authentication, rate limit, role/kind requirements. */
  static register(config: ServerConfig, logger: Logger): DynamicModule {
    return {
      module: AppModule,
      imports: [SharedModule.register(config, logger), UsersModule, RealmModule, ChannelsModule, MessagesModule, DraftsModule, InvitationsModule, EmojiModule, PushModule, ServerModule, EventsModule],
      providers: [
        { provide: APP_GUARD, useClass: ApiAuthGuard },
        { provide: APP_GUARD, useClass: RateLimitGuard },
        { provide: APP_GUARD, useClass: RequirementsGuard },
        { provide: APP_INTERCEPTOR, useClass: EnvelopeInterceptor },
        { provide: APP_FILTER, useClass: AllExceptionsFilter },
      ],
    };
  }
}
