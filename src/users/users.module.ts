import { Module } from '@nestjs/common';
import { PassportModule } from '@nestjs/passport';
import { ApiKeyBasicStrategy } from './http/basic-auth.strategy.js';
import { ApiKeysService } from './application/api-keys.service.js';
import { BootstrapService } from './application/bootstrap.service.js';
import { NewAccounts } from './application/new-accounts.js';
import { FullMembersRefresh } from './application/full-members.js';
import { Authenticator } from './application/authenticator.js';
import { UserGroupsService } from './application/user-groups.service.js';
import { UserStatusQueries } from './application/user-status.ports.js';
import { UserStatusService } from './application/user-status.service.js';
import { UserQueries } from './application/user.ports.js';
import { UsersService } from './application/users.service.js';
import { FetchApiKeyController } from './http/fetch-api-key.controller.js';
import { RealmSettingGuard } from './http/realm-setting.guard.js';
import { UserGroupsController } from './http/user-groups.controller.js';
import { UserStatusController } from './http/user-status.controller.js';
import { UsersController } from './http/users.controller.js';
import { TypeOrmUserQueries } from './persistence/typeorm-user.queries.js';
import { TypeOrmUserStatusQueries } from './persistence/typeorm-user-status.repository.js';

@Module({
  imports: [PassportModule],
  controllers: [UserStatusController, UsersController, UserGroupsController, FetchApiKeyController],
  providers: [
    UsersService,
    BootstrapService,
    NewAccounts,
    FullMembersRefresh,
    UserGroupsService,
    UserStatusService,
    ApiKeysService,
    Authenticator,
    ApiKeyBasicStrategy,
    RealmSettingGuard,
    { provide: UserQueries, useClass: TypeOrmUserQueries },
    { provide: UserStatusQueries, useClass: TypeOrmUserStatusQueries },
  ],
  exports: [FullMembersRefresh, BootstrapService, UsersService, UserQueries, UserStatusService],
})
export class UsersModule {}
