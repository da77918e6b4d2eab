import { BotsService } from './application/bots.service.js';
import { BotsController } from './http/bots.controller.js';
import { Module } from '@nestjs/common';
import { PassportModule } from '@nestjs/passport';
import { ApiKeyBasicStrategy } from './http/basic-auth.strategy.js';
import { AccountService } from './application/account.service.js';
import { AlertWordQueries } from './application/alert-words.ports.js';
import { AlertWordsService } from './application/alert-words.service.js';
import { OnboardingStepsService } from './application/onboarding-steps.service.js';
import { NavigationViewsService } from './application/navigation-views.service.js';
import { MutedUserQueries } from './application/muted-users.ports.js';
import { MutedUsersService } from './application/muted-users.service.js';
import { BotStorageQueries } from './application/bot-storage.ports.js';
import { BotStorageService } from './application/bot-storage.service.js';
import { ApiKeysService } from './application/api-keys.service.js';
import { BootstrapService } from './application/bootstrap.service.js';
import { CustomProfileFieldQueries } from './application/custom-profile-fields.ports.js';
import { CustomProfileFieldsService } from './application/custom-profile-fields.service.js';
import { EmailChanges } from './application/email-changes.js';
import { NewAccounts } from './application/new-accounts.js';
import { NewUsers } from './application/new-users.js';
import { LoginNotices } from './application/login-notices.js';
import { PasswordResetService } from './application/password-reset.service.js';
import { PasswordResetController } from './http/password-reset.controller.js';
import { FullMembersRefresh } from './application/full-members.js';
import { Authenticator } from './application/authenticator.js';
import { ProfileData } from './application/profile-data.js';
import { SettingsService } from './application/settings.service.js';
import { UserGroupsService } from './application/user-groups.service.js';
import { UserSettingsQueries } from './application/user-settings.ports.js';
import { UserStatusQueries } from './application/user-status.ports.js';
import { UserStatusService } from './application/user-status.service.js';
import { UserQueries } from './application/user.ports.js';
import { UsersService } from './application/users.service.js';
import { AlertWordsController } from './http/alert-words.controller.js';
import { OnboardingStepsController } from './http/onboarding-steps.controller.js';
import { NavigationViewsController } from './http/navigation-views.controller.js';
import { MutedUsersController } from './http/muted-users.controller.js';
import { BotStorageController } from './http/bot-storage.controller.js';
import { ConfirmEmailController } from './http/confirm-email.controller.js';
import { CustomProfileFieldsController } from './http/custom-profile-fields.controller.js';
import { FetchApiKeyController } from './http/fetch-api-key.controller.js';
import { SessionsController } from './http/sessions.controller.js';
import { PasswordAuthentication } from './application/password-authentication.js';
import { SessionQueries } from './application/session.ports.js';
import { SessionsService } from './application/sessions.service.js';
import { TypeOrmSessionQueries } from './persistence/typeorm-session.repository.js';
import { BrowserSessions } from '../shared/application/browser-sessions.js';
import { RealmSettingGuard } from './http/realm-setting.guard.js';
import { SettingsController } from './http/settings.controller.js';
import { UserGroupsController } from './http/user-groups.controller.js';
import { UserStatusController } from './http/user-status.controller.js';
import { UsersController } from './http/users.controller.js';
import { AvatarsController } from './http/avatars.controller.js';
import { AvatarsService } from './application/avatars.service.js';
import { TypeOrmAlertWordQueries } from './persistence/typeorm-alert-word.repository.js';
import { TypeOrmMutedUserQueries } from './persistence/typeorm-muted-user.repository.js';
import { TypeOrmBotStorageQueries } from './persistence/typeorm-bot-storage.repository.js';
import { TypeOrmCustomProfileFieldQueries } from './persistence/typeorm-custom-profile-field.repository.js';
import { TypeOrmUserQueries } from './persistence/typeorm-user.queries.js';
import { TypeOrmUserSettingsQueries } from './persistence/typeorm-user-settings.repository.js';
import { TypeOrmUserStatusQueries } from './persistence/typeorm-user-status.repository.js';
import { RealmUserDefaultsQueries } from './application/realm-user-defaults.ports.js';
import { RealmUserDefaultsService } from './application/realm-user-defaults.service.js';
import { RealmUserDefaultsController } from './http/realm-user-defaults.controller.js';
import { JwtFetchApiKeyController } from './http/jwt-fetch-api-key.controller.js';
import { TypeOrmRealmUserDefaultsQueries } from './persistence/typeorm-realm-user-defaults.repository.js';

@Module({
  imports: [PassportModule],
  controllers: [
    UserStatusController,
    AlertWordsController,
    OnboardingStepsController,
    NavigationViewsController,
    MutedUsersController,
    BotStorageController,
    SettingsController,
    CustomProfileFieldsController,
    UsersController,
    AvatarsController,
    BotsController,
    UserGroupsController,
    FetchApiKeyController,
    SessionsController,
    ConfirmEmailController,
    PasswordResetController,
    RealmUserDefaultsController,
    JwtFetchApiKeyController,
  ],
  providers: [
    UsersService,
    AvatarsService,
    BootstrapService,
    NewAccounts,
    NewUsers,
    LoginNotices,
    PasswordResetService,
    FullMembersRefresh,
    UserGroupsService,
    UserStatusService,
    ApiKeysService,
    PasswordAuthentication,
    SessionsService,
    // The auth guard's port: /json requests and uploads authenticated by the session cookie.
    { provide: BrowserSessions, useExisting: SessionsService },
    { provide: SessionQueries, useClass: TypeOrmSessionQueries },
    Authenticator,
    ApiKeyBasicStrategy,
    RealmSettingGuard,
    SettingsService,
    AccountService,
    EmailChanges,
    ProfileData,
    CustomProfileFieldsService,
    AlertWordsService,
    OnboardingStepsService,
    NavigationViewsService,
    BotStorageService,
    BotsService,
    { provide: AlertWordQueries, useClass: TypeOrmAlertWordQueries },
    MutedUsersService,
    { provide: MutedUserQueries, useClass: TypeOrmMutedUserQueries },
    { provide: BotStorageQueries, useClass: TypeOrmBotStorageQueries },
    { provide: UserQueries, useClass: TypeOrmUserQueries },
    { provide: UserStatusQueries, useClass: TypeOrmUserStatusQueries },
    { provide: UserSettingsQueries, useClass: TypeOrmUserSettingsQueries },
    { provide: CustomProfileFieldQueries, useClass: TypeOrmCustomProfileFieldQueries },
    RealmUserDefaultsService,
    { provide: RealmUserDefaultsQueries, useClass: TypeOrmRealmUserDefaultsQueries },
  ],
  exports: [
    BrowserSessions,
    FullMembersRefresh,
    BootstrapService,
    UsersService,
    UserQueries,
    UserStatusService,
    UserSettingsQueries,
    CustomProfileFieldQueries,
    AlertWordsService,
    MutedUsersService,
    BotsService,
    AccountService,
    NewAccounts,
    NewUsers,
    RealmUserDefaultsQueries,
  ],
})
export class UsersModule {}
