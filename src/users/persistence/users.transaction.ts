import { DomainError } from '@app/domain/shared';
import { fieldLabelTaken, navigationViewExists, userGroupAlreadyExists } from '@app/domain/users';
import type { TransactionContribution } from '../../shared/persistence/transaction-contribution.js';
import { TypeOrmAlertWordRepository } from './typeorm-alert-word.repository.js';
import { TypeOrmOnboardingStepRepository } from './typeorm-onboarding-step.repository.js';
import { TypeOrmNavigationViewRepository } from './typeorm-navigation-view.repository.js';
import { TypeOrmBotRepository } from './typeorm-bot.repository.js';
import { TypeOrmBotStorageRepository } from './typeorm-bot-storage.repository.js';
import { TypeOrmMutedUserRepository } from './typeorm-muted-user.repository.js';
import { TypeOrmCustomProfileFieldRepository } from './typeorm-custom-profile-field.repository.js';
import { TypeOrmUserGroupRepository } from './typeorm-user-group.repository.js';
import {
  TypeOrmAccountRepository,
  TypeOrmEmailChangeRepository,
  TypeOrmPasswordResetRepository,
  TypeOrmUserSettingsRepository,
} from './typeorm-user-settings.repository.js';
import { TypeOrmUserStatusRepository } from './typeorm-user-status.repository.js';
import { TypeOrmSessionRepository } from './typeorm-session.repository.js';
import { TypeOrmUserRepository } from './typeorm-user.repository.js';
import { TypeOrmRealmUserDefaultsRepository } from './typeorm-realm-user-defaults.repository.js';

const emailInUse = (email: string) => new DomainError(`Email '${email}' already in use`);

export const usersTransaction: TransactionContribution<
  'users' | 'groups' | 'userStatus' | 'userSettings' | 'accounts' | 'emailChanges' | 'passwordResets' | 'profileFields' | 'alertWords' | 'onboardingSteps' | 'navigationViews' | 'botStorage' | 'mutedUsers' | 'bots' | 'sessions' | 'realmUserDefaults'
> = {
  repositories: (em) => ({
    users: new TypeOrmUserRepository(em),
    groups: new TypeOrmUserGroupRepository(em),
    userStatus: new TypeOrmUserStatusRepository(em),
    userSettings: new TypeOrmUserSettingsRepository(em),
    accounts: new TypeOrmAccountRepository(em),
    emailChanges: new TypeOrmEmailChangeRepository(em),
    passwordResets: new TypeOrmPasswordResetRepository(em),
    profileFields: new TypeOrmCustomProfileFieldRepository(em),
    alertWords: new TypeOrmAlertWordRepository(em),
    onboardingSteps: new TypeOrmOnboardingStepRepository(em),
    navigationViews: new TypeOrmNavigationViewRepository(em),
    botStorage: new TypeOrmBotStorageRepository(em),
    mutedUsers: new TypeOrmMutedUserRepository(em),
    bots: new TypeOrmBotRepository(em),
    sessions: new TypeOrmSessionRepository(em),
    realmUserDefaults: new TypeOrmRealmUserDefaultsRepository(em),
  }),
  uniqueViolations: {
    users_realm_delivery_email_key: emailInUse,
    users_realm_email_key: emailInUse,
    user_groups_realm_name_key: userGroupAlreadyExists,
    custom_profile_fields_realm_name_key: fieldLabelTaken,
    navigation_views_user_fragment_key: navigationViewExists,
    navigation_views_user_name_key: navigationViewExists,
  },
};
