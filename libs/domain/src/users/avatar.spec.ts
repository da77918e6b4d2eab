import { assertCanChangeAvatar, avatarSourceOf } from './avatar.js';
import { Role } from './role.js';

describe('avatars', () => {
  it('are uploaded exactly when a stored file names them', () => {
    expect(avatarSourceOf(null)).toBe('G');
    expect(avatarSourceOf('7/' + 'a'.repeat(40))).toBe('U');
  });

  it('avatar_changes_disabled binds all but administrators', () => {
    for (const role of [Role.OWNER, Role.ADMINISTRATOR, Role.MODERATOR, Role.MEMBER, Role.GUEST]) expect(() => assertCanChangeAvatar(false, role)).not.toThrow();
    for (const role of [Role.OWNER, Role.ADMINISTRATOR]) expect(() => assertCanChangeAvatar(true, role)).not.toThrow();
    for (const role of [Role.MODERATOR, Role.MEMBER, Role.GUEST]) {
      expect(() => assertCanChangeAvatar(true, role)).toThrow('Avatar changes are disabled in this organization.');
    }
  });
});
