import { Global, Module } from '@nestjs/common';
import { Re2PatternEngine } from '../shared/regex/re2.js';
import { UsersModule } from '../users/users.module.js';
import { BootstrapService } from './application/bootstrap.service.js';
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
import { TypeOrmRealmQueries } from './persistence/typeorm-realm.repository.js';

@Global()
@Module({
  imports: [UsersModule],
  controllers: [LinkifiersController, PlaygroundsController, RealmDomainsController, RealmSettingsController],
  providers: [
    BootstrapService,
    RealmResolver,
    LinkifiersService,
    PlaygroundsService,
    RealmDomainsService,
    RealmSettingsService,
    { provide: RealmQueries, useClass: TypeOrmRealmQueries },
    { provide: PatternEngine, useClass: Re2PatternEngine },
  ],
  exports: [RealmQueries, BootstrapService, RealmResolver, LinkifiersService, PlaygroundsService],
})
export class RealmModule {}
