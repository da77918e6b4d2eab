import { DomainError } from '@app/domain/shared';
import { userGroupAlreadyExists } from '@app/domain/users';
import type { TransactionContribution } from '../../shared/persistence/transaction-contribution.js';
import { TypeOrmUserGroupRepository } from './typeorm-user-group.repository.js';
import { TypeOrmUserStatusRepository } from './typeorm-user-status.repository.js';
import { TypeOrmUserRepository } from './typeorm-user.repository.js';

const emailInUse = (email: string) => new DomainError(`Email '${email}' already in use`);

export const usersTransaction: TransactionContribution<'users' | 'groups' | 'userStatus'> = {
  repositories: (em) => ({
    users: new TypeOrmUserRepository(em),
    groups: new TypeOrmUserGroupRepository(em),
    userStatus: new TypeOrmUserStatusRepository(em),
  }),
  uniqueViolations: {
    users_realm_delivery_email_key: emailInUse,
    users_realm_email_key: emailInUse,
    user_groups_realm_name_key: userGroupAlreadyExists,
  },
};
