import { Module } from '@nestjs/common';
import { Re2PatternEngine } from './infrastructure/re2-pattern-engine.js';
import { LinkifiersService } from './application/linkifiers.service.js';
import { PlaygroundsService } from './application/playgrounds.service.js';
import { RealmDomainsService } from './application/realm-domains.service.js';
import { RealmResolver } from './application/realm-resolver.js';
import { RealmSettingsService } from './application/realm-settings.service.js';
import { PatternEngine, RealmQueries } from './application/realm.ports.js';
import { LinkifiersController } from './http/linkifiers.controller.js';
import { PlaygroundsController } from './http/playgrounds.controller.js';
import { RealmDomainsController } from './http/realm-domains.controller.js';
import { RealmSettingsController } from './http/realm-settings.controller.js';
import { RealmBrandingController } from './http/realm-branding.controller.js';
import { RealmBrandingService } from './application/realm-branding.service.js';
import { TypeOrmRealmQueries } from './persistence/typeorm-realm.repository.js';
import { RealmDeactivationController } from './http/realm-deactivation.controller.js';
import { RealmDeactivationService } from './application/realm-deactivation.service.js';

@Module({
  controllers: [LinkifiersController, PlaygroundsController, RealmDomainsController, RealmSettingsController, RealmBrandingController, RealmDeactivationController],
  providers: [
    RealmResolver,
    LinkifiersService,
    PlaygroundsService,
    RealmDomainsService,
    RealmSettingsService,
    RealmBrandingService,
    RealmDeactivationService,
    { provide: RealmQueries, useClass: TypeOrmRealmQueries },
    { provide: PatternEngine, useClass: Re2PatternEngine },
  ],
  exports: [RealmQueries, RealmResolver, LinkifiersService, PlaygroundsService, PatternEngine],
})
export class RealmModule {}
