import { type DynamicModule, Global, Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_INTERCEPTOR, APP_PIPE } from '@nestjs/core';
import type { Logger } from 'pino';
import { ChannelsModule } from '../channels/channels.module.js';
import { DraftsModule } from '../drafts/drafts.module.js';
import { EmailModule } from '../email/email.module.js';
import { EmojiModule } from '../emoji/emoji.module.js';
import { EventsModule } from '../events/events.module.js';
import { ExportsModule } from '../exports/exports.module.js';
import { InvitationsModule } from '../invitations/invitations.module.js';
import { MessagesModule } from '../messages/messages.module.js';
import { PresenceModule } from '../presence/presence.module.js';
import { PushModule } from '../push/push.module.js';
import { RealmModule } from '../realm/realm.module.js';
import { ServerModule } from '../server/server.module.js';
import { ApiAuthGuard, RateLimitGuard, RequirementsGuard } from '../shared/auth/guards.js';
import type { ServerConfig } from '../shared/config/server-config.js';
import { AllExceptionsFilter } from '../shared/http/all-exceptions.filter.js';
import { MultipartBodyInterceptor } from '../shared/http/multipart-body.interceptor.js';
import { EnvelopeInterceptor } from '../shared/http/envelope.interceptor.js';
import { PathTextPipe } from '../shared/http/path-params.js';
import { UsersModule } from '../users/users.module.js';
import { EventQueues } from '../events/application/event-queues.js';
import { CrossContextPorts } from './cross-context.ports.js';
import { RouteIndex } from './route-index.js';
import { EventsDeliveredInterceptor } from './metrics/events-delivered.interceptor.js';
import { MetricsController } from './metrics/metrics.controller.js';
import { ServerMetrics } from './metrics/server-metrics.js';
import { KernelModule } from './kernel.module.js';

/** Every context's Nest module, in dependency order (see CONTEXT_DEPENDENCIES in eslint.config.js). */
const CONTEXT_MODULES = [
  RealmModule,
  EmojiModule,
  UsersModule,
  ChannelsModule,
  MessagesModule,
  DraftsModule,
  InvitationsModule,
  PushModule,
  ServerModule,
  PresenceModule,
  EmailModule,
  ExportsModule,
  EventsModule,
];

/**
 * Context modules never import each other: this global module re-exports them all, so what a
 * context exports (the services and ports listed in its index.ts) can be injected by any other,
 * and the ports one context owns and another implements are bound in one place.
 */
@Global()
@Module({ imports: CONTEXT_MODULES, providers: CrossContextPorts, exports: [...CONTEXT_MODULES, ...CrossContextPorts] })
class ContextsModule {}

@Module({})
export class AppModule {
  /** Guards run in this order: authentication, rate limit, role/kind requirements. */
  static register(config: ServerConfig, logger: Logger): DynamicModule {
    return {
      module: AppModule,
      imports: [KernelModule.register(config, logger), ContextsModule],
      controllers: [MetricsController],
      providers: [
        { provide: APP_GUARD, useClass: ApiAuthGuard },
        { provide: APP_GUARD, useClass: RateLimitGuard },
        { provide: APP_GUARD, useClass: RequirementsGuard },
        { provide: APP_INTERCEPTOR, useClass: EnvelopeInterceptor },
        // After the guards: a multipart body is read only for a request that may reach its route.
        { provide: APP_INTERCEPTOR, useClass: MultipartBodyInterceptor },
        { provide: APP_FILTER, useClass: AllExceptionsFilter },
        { provide: APP_PIPE, useClass: PathTextPipe },
        { provide: APP_INTERCEPTOR, useClass: EventsDeliveredInterceptor },
        // Once the routes are registered: each request tries only the route layers that can match its path.
        RouteIndex,
        {
          // svc_event_polls_waiting reads the polls waiting in this process's event queues.
          provide: 'metrics:waiting-polls',
          useFactory: (metrics: ServerMetrics, queues: EventQueues) => metrics.watchPolls(() => queues.waitingPolls),
          inject: [ServerMetrics, EventQueues],
        },
      ],
    };
  }
}
