import { DomainError } from '../shared/domain-error.js';
import { Role } from './role.js';

/** DELETE /users/me: the only active user, or the only owner, may not leave. */
export function assertCanDeactivateSelf(role: Role, activeHumans: number, activeHumanOwners: number): void {
  if (activeHumans <= 1) throw lastUserError(false);
  if (role === Role.OWNER && activeHumanOwners <= 1) throw lastUserError(true);
}

function lastUserError(isLastOwner: boolean): DomainError {
  const entity = isLastOwner ? 'organization owner' : 'user';
  return new DomainError(`Cannot deactivate the only ${entity}.`, 'CANNOT_DEACTIVATE_LAST_USER', 'invalid', {
    is_last_owner: isLastOwner,
    entity,
  });
}
