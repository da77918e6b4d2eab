import { Module } from '@nestjs/common';
import { PassportModule } from '@nestjs/passport';
import { ApiKeyBasicStrategy } from '../shared/auth/basic-auth.strategy.js';
import { ApiKeysService } from './application/api-keys.service.js';
import { Authenticator } from './application/authenticator.js';
import { UserGroupsService } from './application/user-groups.service.js';
import { UserQueries } from './application/user.ports.js';
import { UsersService } from './application/users.service.js';
import { FetchApiKeyController } from './http/fetch-api-key.controller.js';
import { RealmSettingGuard } from './http/realm-setting.guard.js';
import { UserGroupsController } from './http/user-groups.controller.js';
import { UsersController } from './http/users.controller.js';
import { TypeOrmUserQueries } from './persistence/typeorm-user.queries.js';

@Module({
  imports: [PassportModule],
  controllers: [UsersController, UserGroupsController, FetchApiKeyController],
  providers: [
    UsersService,
    UserGroupsService,
    ApiKeysService,
    Authenticator,
    ApiKeyBasicStrategy,
    RealmSettingGuard,
    { provide: UserQueries, useClass: TypeOrmUserQueries },
  ],
  exports: [UsersService, UserQueries],
})
export class UsersModule {}
