import type { ChannelGroupSettings } from '../channels/channel-settings.js';
import { DomainError } from '../shared/domain-error.js';
import { Role } from '../users/role.js';
import { confirmationKeyFromRandomBytes, isConfirmationKey } from './confirmation-key.js';
import { expiryDate, Invitation, InvitationStatus, MultiuseInvite } from './invitation.js';
import {
  assertCanInviteAs,
  assertCanInviteToChannels,
  assertCanInviteToGroup,
  assertCanManageInvitation,
  assertCanSetWelcomeText,
  assertOldEnoughToInvite,
  assertWithinDailyLimit,
  type InviteChannel,
  inviteeAddressError,
  planInvitations,
} from './invite.policy.js';
import { parseInviteeEmails } from './invitee-emails.js';

/** Runs `f` and returns the DomainError it throws. */
function caught(f: () => unknown): DomainError {
  try {
    f();
  } catch (e) {
    if (e instanceof DomainError) return e;
    throw e;
  }
  throw new Error('expected a DomainError');
}

describe('invite_as', () => {
  const allowed: [Role, number[]][] = [
    [Role.OWNER, [100, 200, 300, 400, 600]],
    [Role.ADMINISTRATOR, [200, 300, 400, 600]],
    [Role.MODERATOR, [300, 400, 600]],
    [Role.MEMBER, [400, 600]],
  ];
  it.each(allowed)('role %i grants its own role and the ones below', (role, roles) => {
    for (const r of roles) assertCanInviteAs(role, r);
  });
  it('refuses more privileged roles with BAD_REQUEST errors', () => {
    expect(caught(() => assertCanInviteAs(Role.ADMINISTRATOR, 100))).toMatchObject({ msg: 'Must be an organization owner', code: 'BAD_REQUEST' });
    expect(caught(() => assertCanInviteAs(Role.MODERATOR, 100)).msg).toBe('Must be an organization owner');
    expect(caught(() => assertCanInviteAs(Role.MODERATOR, 200))).toMatchObject({ msg: 'Must be an organization administrator', code: 'BAD_REQUEST' });
    expect(caught(() => assertCanInviteAs(Role.MEMBER, 200)).msg).toBe('Must be an organization administrator');
    expect(caught(() => assertCanInviteAs(Role.MEMBER, 300))).toMatchObject({ msg: 'Insufficient permission', code: 'BAD_REQUEST' });
  });
});

describe('welcome message text', () => {
  it('is for administrators only, even when empty', () => {
    assertCanSetWelcomeText(Role.OWNER, 'hi');
    assertCanSetWelcomeText(Role.ADMINISTRATOR, '');
    assertCanSetWelcomeText(Role.MEMBER, undefined);
    assertCanSetWelcomeText(Role.MEMBER, null);
    expect(() => assertCanSetWelcomeText(Role.MODERATOR, '')).toThrow('Must be an organization administrator');
    expect(() => assertCanSetWelcomeText(Role.MEMBER, 'x')).toThrow('Must be an organization administrator');
  });
});

describe('daily limit', () => {
  it('counts this request plus the last day against the maximum', () => {
    assertWithinDailyLimit(3, 97, 100);
    const e = caught(() => assertWithinDailyLimit(4, 97, 100));
    expect(e).toMatchObject({ code: 'INVITATION_FAILED', kind: 'invalid' });
    expect(e.msg).toContain('Because you have reached the limit, no invitations were sent.');
    expect(e.data).toEqual({ errors: [], sent_invitations: false, license_limit_reached: false, daily_limit_reached: true });
  });
});

describe('account age', () => {
  const now = new Date('2025-01-10T00:00:00Z');
  const joined = (days: number) => new Date(now.getTime() - days * 86_400_000);
  const base = { inviteRequired: false, inviterRole: Role.MEMBER as Role, now, minAgeDays: 3 };
  it('applies only to non-admins of organizations that do not require invitations', () => {
    const e = caught(() => assertOldEnoughToInvite({ ...base, dateJoined: joined(2.9) }));
    expect(e.msg).toBe('Your account is too new to send invites for this organization. Ask an organization admin, or a more experienced user.');
    expect(e.data).toMatchObject({ errors: [], sent_invitations: false, daily_limit_reached: false });
    assertOldEnoughToInvite({ ...base, dateJoined: joined(3) });
    assertOldEnoughToInvite({ ...base, dateJoined: joined(0), inviteRequired: true });
    assertOldEnoughToInvite({ ...base, dateJoined: joined(0), inviterRole: Role.ADMINISTRATOR });
    expect(() => assertOldEnoughToInvite({ ...base, dateJoined: joined(0), inviterRole: Role.MODERATOR })).toThrow('too new');
  });
});

describe('channels of an invitation', () => {
  const settings = (o: Partial<ChannelGroupSettings> = {}) =>
    ({ can_add_subscribers_group: 1, can_subscribe_group: 1, can_administer_channel_group: 1, can_remove_subscribers_group: 1, ...o }) as ChannelGroupSettings;
  const NOBODY = 1;
  const MEMBERS = 10;
  const ch = (o: { inviteOnly?: boolean; isArchived?: boolean; settings?: Partial<ChannelGroupSettings> } = {}, extra: Partial<InviteChannel> = {}): InviteChannel => ({
    channel: { inviteOnly: o.inviteOnly ?? false, isWebPublic: false, isArchived: o.isArchived ?? false, groupSettings: settings(o.settings) },
    subscribed: false,
    isDefault: false,
    ...extra,
  });
  const member = { userId: 5, role: Role.MEMBER as Role, groupIds: new Set([MEMBERS]) };
  const admin = { userId: 6, role: Role.ADMINISTRATOR as Role, groupIds: new Set([MEMBERS]) };

  it('needs every channel to exist, be active and be readable, in order', () => {
    const channels = new Map<number, InviteChannel>([
      [1, ch()],
      [2, ch({ inviteOnly: true })],
      [3, ch({ isArchived: true })],
    ]);
    expect(() => assertCanInviteToChannels([1, 9], channels, member, MEMBERS)).toThrow('Invalid channel ID 9. No invites were sent.');
    expect(() => assertCanInviteToChannels([2], channels, member, MEMBERS)).toThrow('Invalid channel ID 2. No invites were sent.');
    expect(() => assertCanInviteToChannels([3], channels, admin, MEMBERS)).toThrow('Invalid channel ID 3. No invites were sent.');
    channels.set(2, ch({ inviteOnly: true }, { subscribed: true }));
    assertCanInviteToChannels([1, 2], channels, member, MEMBERS);
  });
  it('needs permission to subscribe others, except to default channels', () => {
    const channels = new Map<number, InviteChannel>([
      [1, ch()],
      [2, ch({}, { isDefault: true })],
      [3, ch({ settings: { can_add_subscribers_group: MEMBERS } })],
    ]);
    expect(() => assertCanInviteToChannels([1], channels, member, NOBODY)).toThrow('You do not have permission to subscribe other users to channels.');
    assertCanInviteToChannels([2, 3], channels, member, NOBODY);
    assertCanInviteToChannels([1], channels, member, MEMBERS);
    assertCanInviteToChannels([1], channels, admin, NOBODY);
    // Access comes first: an unknown channel is reported even after a forbidden one.
    expect(() => assertCanInviteToChannels([1, 9], channels, member, NOBODY)).toThrow('Invalid channel ID 9');
  });
});

describe('groups of an invitation', () => {
  it('needs an active named non-system group the inviter may add members to', () => {
    const named = { name: 'devs', deactivated: false, isSystemGroup: false };
    assertCanInviteToGroup(named, true);
    expect(() => assertCanInviteToGroup(null, true)).toThrow('Invalid user group');
    expect(() => assertCanInviteToGroup({ ...named, name: null }, true)).toThrow('Invalid user group');
    expect(() => assertCanInviteToGroup({ ...named, deactivated: true }, true)).toThrow('User group is deactivated.');
    expect(() => assertCanInviteToGroup({ ...named, name: 'role:members', isSystemGroup: true }, true)).toThrow('Insufficient permission');
    expect(() => assertCanInviteToGroup(named, false)).toThrow('Insufficient permission');
  });
});

describe('invitee emails', () => {
  it('splits on commas and newlines, extracts named addresses, strips and de-duplicates', () => {
    expect(parseInviteeEmails('a@x.com, b@x.com\nc@x.com')).toEqual(['a@x.com', 'b@x.com', 'c@x.com']);
    expect(parseInviteeEmails('Alice <a@x.com>,  a@x.com ,A@x.com')).toEqual(['a@x.com', 'A@x.com']);
    expect(parseInviteeEmails('a@x.com,')).toEqual(['a@x.com', '']);
    expect(parseInviteeEmails('   ')).toEqual(['']);
    expect(parseInviteeEmails('"Bob, Jr" <b@x.com>')).toEqual(['"Bob', 'b@x.com']);
  });
});

describe('planning invitations', () => {
  const open = { emailsRestrictedToDomains: false, disallowDisposableEmailAddresses: true, domains: [] };
  const restricted = { emailsRestrictedToDomains: true, disallowDisposableEmailAddresses: true, domains: [{ domain: 'acme.com', allowSubdomains: true }] };
  const disposable = (d: string) => d === 'mailinator.com';
  const none = new Map();

  it('names the reason of each refused address', () => {
    expect(inviteeAddressError('nope', open, disposable)).toBe('Invalid address.');
    expect(inviteeAddressError('a@mailinator.com', open, disposable)).toBe('Please use your real email address.');
    expect(inviteeAddressError('a@mailinator.com', { ...open, disallowDisposableEmailAddresses: false }, disposable)).toBeNull();
    expect(inviteeAddressError('a@other.com', restricted, disposable)).toBe('Outside your domain.');
    expect(inviteeAddressError('a+b@acme.com', restricted, disposable)).toBe('Email addresses containing + are not allowed.');
    expect(inviteeAddressError('a@eu.acme.com', restricted, disposable)).toBeNull();
    expect(inviteeAddressError('a+b@acme.com', open, disposable)).toBeNull();
  });

  it('invites everyone valid and new; empty entries are skipped silently', () => {
    expect(planInvitations(['a@x.com', '', 'b@x.com'], open, disposable, none)).toEqual({ toInvite: ['a@x.com', 'b@x.com'], skipped: [] });
    expect(planInvitations([''], open, disposable, none)).toEqual({ toInvite: [], skipped: [] });
  });

  it('refuses the whole request when any address is invalid, listing existing accounts after', () => {
    const existing = new Map([['old@x.com', { isActive: true, isSystemBot: false }]]);
    const e = caught(() => planInvitations(['OLD@x.com', 'bad', 'new@x.com'], open, disposable, existing));
    expect(e).toMatchObject({ code: 'INVITATION_FAILED', msg: "Some emails did not validate, so we didn't send any invitations." });
    expect(e.data).toEqual({
      errors: [
        ['bad', 'Invalid address.', false],
        ['OLD@x.com', 'Already has an account.', false],
      ],
      sent_invitations: false,
      license_limit_reached: false,
      daily_limit_reached: false,
    });
  });

  it('skips existing accounts, system bots and deactivated accounts', () => {
    const existing = new Map([
      ['a@x.com', { isActive: true, isSystemBot: false }],
      ['bot@x.com', { isActive: true, isSystemBot: true }],
      ['gone@x.com', { isActive: false, isSystemBot: false }],
    ]);
    expect(planInvitations(['a@x.com', 'bot@x.com', 'gone@x.com', 'new@x.com'], open, disposable, existing)).toEqual({
      toInvite: ['new@x.com'],
      skipped: [
        ['a@x.com', 'Already has an account.', false],
        ['bot@x.com', 'Reserved for system bots.', false],
        ['gone@x.com', 'Account has been deactivated.', true],
      ],
    });
    const e = caught(() => planInvitations(['a@x.com', 'gone@x.com'], open, disposable, existing));
    expect(e.msg).toBe("We weren't able to invite anyone.");
    expect(e.data.sent_invitations).toBe(false);
    // A trailing comma adds an empty entry: "everyone skipped" no longer holds (Zulip's quirk).
    expect(planInvitations(['a@x.com', ''], open, disposable, existing)).toEqual({ toInvite: [], skipped: [['a@x.com', 'Already has an account.', false]] });
  });
});

describe('managing an invitation', () => {
  const mine = { referredById: 5, invitedAs: 400 };
  it('lets the inviter manage their own, administrators the others, owners the owner invitations', () => {
    assertCanManageInvitation({ userId: 5, role: Role.MEMBER }, mine);
    assertCanManageInvitation({ userId: 5, role: Role.ADMINISTRATOR }, { referredById: 5, invitedAs: 100 });
    assertCanManageInvitation({ userId: 6, role: Role.ADMINISTRATOR }, mine);
    expect(caught(() => assertCanManageInvitation({ userId: 6, role: Role.MODERATOR }, mine))).toMatchObject({
      msg: 'Must be an organization administrator',
      code: 'BAD_REQUEST',
    });
    expect(caught(() => assertCanManageInvitation({ userId: 6, role: Role.ADMINISTRATOR }, { referredById: 5, invitedAs: 100 }))).toMatchObject({
      msg: 'Must be an organization owner',
      code: 'UNAUTHORIZED_PRINCIPAL',
    });
    expect(caught(() => assertCanManageInvitation({ userId: 6, role: Role.MEMBER }, { referredById: 5, invitedAs: 100 })).msg).toBe('Must be an organization owner');
    assertCanManageInvitation({ userId: 6, role: Role.OWNER }, { referredById: 5, invitedAs: 100 });
  });
});

describe('invitations and links', () => {
  const now = new Date('2025-01-01T00:00:00Z');
  const terms = { invitedAs: Role.MEMBER, channelIds: [3, 3, 1], groupIds: [], includeRealmDefaultSubscriptions: false, welcomeMessageCustomText: null };

  it('expire after the given minutes, or never', () => {
    expect(expiryDate(now, 60)).toEqual(new Date('2025-01-01T01:00:00Z'));
    expect(expiryDate(now, null)).toBeNull();
    expect(expiryDate(now, -60)).toEqual(new Date('2024-12-31T23:00:00Z'));
    expect(() => expiryDate(now, 10_000_000_000)).toThrow('invite_expires_in_minutes is too large');
    expect(() => expiryDate(now, -10_000_000_000)).toThrow('invite_expires_in_minutes is too small');
    const inv = Invitation.create({ realmId: 1, email: 'a@x.com', referredById: 5, terms, notifyReferrerOnJoin: true, now, expiresInMinutes: 60, confirmationKey: 'k' });
    expect(inv.snapshot()).toMatchObject({ channelIds: [3, 1], status: InvitationStatus.PENDING, expiresAt: new Date('2025-01-01T01:00:00Z') });
    expect(inv.isPending(new Date('2025-01-01T01:00:00Z'))).toBe(true);
    expect(inv.isPending(new Date('2025-01-01T01:00:01Z'))).toBe(false);
    const never = Invitation.create({ realmId: 1, email: 'a@x.com', referredById: 5, terms, notifyReferrerOnJoin: true, now, expiresInMinutes: null, confirmationKey: 'k' });
    expect(never.isPending(new Date('2999-01-01T00:00:00Z'))).toBe(true);
    expect(Invitation.restore({ ...inv.snapshot(), status: InvitationStatus.USED }).isPending(now)).toBe(false);
  });

  it('reusable links are revoked once, losing their key', () => {
    const link = MultiuseInvite.create({ realmId: 1, referredById: 5, terms, now, expiresInMinutes: null, confirmationKey: 'abc' });
    expect(link.isPending(now)).toBe(true);
    link.revoke();
    expect(link.snapshot()).toMatchObject({ status: InvitationStatus.REVOKED, confirmationKey: null });
    expect(link.isPending(now)).toBe(false);
    expect(() => link.revoke()).toThrow('Invitation has already been revoked');
  });

  it('an invitation is accepted once, until its expiry (inclusive); a reusable link any number of times', () => {
    const dead = 'This confirmation link has expired or been deactivated.';
    const inv = Invitation.create({ realmId: 1, email: 'a@x.com', referredById: 5, terms, notifyReferrerOnJoin: true, now, expiresInMinutes: 60, confirmationKey: 'k' });
    const late = Invitation.restore(inv.snapshot());
    inv.accept(new Date('2025-01-01T01:00:00Z'));
    expect(inv.snapshot().status).toBe(InvitationStatus.USED);
    expect(inv.terms()).toMatchObject({ invitedAs: Role.MEMBER, channelIds: [3, 1] });
    expect(() => inv.accept(now)).toThrow(dead);
    expect(() => late.accept(new Date('2025-01-01T01:00:01Z'))).toThrow(dead);
    expect(late.snapshot().status).toBe(InvitationStatus.PENDING);

    const link = MultiuseInvite.create({ realmId: 1, referredById: 5, terms, now, expiresInMinutes: 60, confirmationKey: 'abc' });
    link.assertUsable(now);
    link.assertUsable(now);
    expect(() => link.assertUsable(new Date('2025-01-01T01:00:01Z'))).toThrow(dead);
    link.revoke();
    expect(() => link.assertUsable(now)).toThrow(dead);
  });

  it('keys are 24 lower-case base32 characters from 15 random bytes', () => {
    const key = confirmationKeyFromRandomBytes(new Uint8Array(15));
    expect(key).toBe('a'.repeat(24));
    expect(confirmationKeyFromRandomBytes(new Uint8Array(15).fill(255))).toBe('7'.repeat(24));
    // RFC 4648 test vector: "foobar" → MZXW6YTBOI (lower-cased), padded here to 15 bytes of input.
    const bytes = new Uint8Array(15);
    bytes.set(new TextEncoder().encode('foobar'));
    expect(confirmationKeyFromRandomBytes(bytes).startsWith('mzxw6ytboi')).toBe(true);
    expect(isConfirmationKey(key)).toBe(true);
    expect(isConfirmationKey('A'.repeat(24))).toBe(false);
    expect(() => confirmationKeyFromRandomBytes(new Uint8Array(14))).toThrow();
  });
});
