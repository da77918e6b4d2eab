import { badRequest } from '../shared/index.js';
import { isAdmin, type Role } from './role.js';

/**
 * Zulip's UserProfile.avatar_source: `G` (Gravatar, from the real address) or `U` (uploaded to
 * this server). A user has an uploaded avatar exactly when a stored avatar file names it.
 */
export type AvatarSource = 'G' | 'U';
export const avatarSourceOf = (avatarPath: string | null): AvatarSource => (avatarPath === null ? 'G' : 'U');

/**
 * Zulip's avatar_changes_disabled check of set_avatar_backend and delete_avatar_backend: the
 * organization's setting binds everyone but its administrators.
 */
export function assertCanChangeAvatar(changesDisabled: boolean, role: Role): void {
  if (changesDisabled && !isAdmin(role)) throw badRequest('Avatar changes are disabled in this organization.');
}
