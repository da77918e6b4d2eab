import { canSeeDeliveryEmail, clientComputesGravatar, deliveryEmailAudienceChange, displayEmail, rolesSeeing, userIdOfDummyEmail, visibilitiesSeenBy } from './email-visibility.js';
import { Role } from './role.js';
import { EMAIL_ADDRESS_VISIBILITY as V } from './user-settings.js';

describe('who sees a real email address', () => {
  it.each([
    [V.EVERYONE, [Role.OWNER, Role.ADMINISTRATOR, Role.MODERATOR, Role.MEMBER, Role.GUEST]],
    [V.MEMBERS, [Role.OWNER, Role.ADMINISTRATOR, Role.MODERATOR, Role.MEMBER]],
    [V.MODERATORS, [Role.OWNER, Role.ADMINISTRATOR, Role.MODERATOR]],
    [V.ADMINS, [Role.OWNER, Role.ADMINISTRATOR]],
    [V.NOBODY, []],
  ])('visibility %i: %j', (visibility, roles) => {
    expect(rolesSeeing(visibility)).toEqual(roles);
  });

  it('always lets users see their own', () => {
    expect(canSeeDeliveryEmail({ id: 5, role: Role.GUEST }, 5, V.NOBODY)).toBe(true);
    expect(canSeeDeliveryEmail({ id: 6, role: Role.OWNER }, 5, V.NOBODY)).toBe(false);
  });

  it('works out who gains and who loses sight', () => {
    expect(deliveryEmailAudienceChange(V.EVERYONE, V.ADMINS)).toEqual({ gained: [], lost: [Role.MODERATOR, Role.MEMBER, Role.GUEST] });
    expect(deliveryEmailAudienceChange(V.ADMINS, V.MODERATORS)).toEqual({ gained: [Role.MODERATOR], lost: [] });
    expect(deliveryEmailAudienceChange(V.MEMBERS, V.MEMBERS)).toEqual({ gained: [], lost: [] });
  });

  it('uses a placeholder email unless everyone may see the address', () => {
    expect(displayEmail(12, 'ada@example.com', V.EVERYONE, 'chat.example.com')).toBe('ada@example.com');
    expect(displayEmail(12, 'ada@example.com', V.MEMBERS, 'chat.example.com')).toBe('user12@chat.example.com');
  });
});

describe('userIdOfDummyEmail', () => {
  it('reads the id of a display address on the fake domain only', () => {
    expect(userIdOfDummyEmail('user12@chat.example.com', 'chat.example.com')).toBe(12);
    expect(userIdOfDummyEmail('user12@other.example.com', 'chat.example.com')).toBeNull();
    expect(userIdOfDummyEmail('userx@chat.example.com', 'chat.example.com')).toBeNull();
    expect(userIdOfDummyEmail('alice@chat.example.com', 'chat.example.com')).toBeNull();
  });
});

describe('visibilitiesSeenBy', () => {
  it('lets members look up members-visible and public addresses only', () => {
    expect([...visibilitiesSeenBy(Role.MEMBER)].sort()).toEqual([V.EVERYONE, V.MEMBERS].sort());
    expect(visibilitiesSeenBy(Role.GUEST)).toEqual([V.EVERYONE]);
  });
});

describe('clientComputesGravatar', () => {
  it('leaves the avatar to a client_gravatar client only for public addresses', () => {
    expect(clientComputesGravatar(true, V.EVERYONE)).toBe(true);
    for (const v of [V.MEMBERS, V.MODERATORS, V.ADMINS, V.NOBODY]) expect(clientComputesGravatar(true, v)).toBe(false);
    expect(clientComputesGravatar(false, V.EVERYONE)).toBe(false);
  });
});
