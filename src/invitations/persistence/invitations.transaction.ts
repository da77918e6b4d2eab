import type { TransactionContribution } from '../../shared/persistence/transaction-contribution.js';
import { TypeOrmInvitationRepository } from './typeorm-invitation.repository.js';

export const invitationsTransaction: TransactionContribution<'invitations'> = {
  repositories: (em) => ({ invitations: new TypeOrmInvitationRepository(em) }),
};
