import type { Viewer } from '../../src/channels/channel-access.policy.js';
import type { Actor } from '../../src/users/actor.js';
import { Role } from '../../src/users/role.js';

/**
 * The system group ids every builder uses, as a fresh organization numbers them:
 * nobody 1, owners 2, administrators 3, moderators 4, full members 5, members 6, everyone 7.
 */
export const GROUP = { NOBODY: 1, OWNERS: 2, ADMINS: 3, MODERATORS: 4, FULL_MEMBERS: 5, MEMBERS: 6, EVERYONE: 7 } as const;

/** A fixed instant: specs pass `now` explicitly and move it with `secondsAfter`. */
export const T0 = new Date('2026-01-01T12:00:00Z');
export const secondsAfter = (d: Date, s: number): Date => new Date(d.getTime() + s * 1000);

/** The system groups a user of this role is in (through subgroups): what `holds` checks. */
export function systemGroupsOf(role: Role): number[] {
  const groups: number[] = [GROUP.EVERYONE];
  if (role <= Role.MEMBER) groups.push(GROUP.MEMBERS, GROUP.FULL_MEMBERS);
  if (role <= Role.MODERATOR) groups.push(GROUP.MODERATORS);
  if (role <= Role.ADMINISTRATOR) groups.push(GROUP.ADMINS);
  if (role <= Role.OWNER) groups.push(GROUP.OWNERS);
  return groups;
}

/** The caller of a use case: a member (id 60) unless told otherwise. */
export function anActor(o: Partial<Actor> = {}): Actor {
  return { userId: 60, realmId: 1, email: 'user60@example.com', role: Role.MEMBER, isBot: false, botType: null, ...o };
}

/** A viewer of the channel rules: its role's system groups plus `extraGroups`. */
export function aViewer(role: Role = Role.MEMBER, userId = 60, extraGroups: number[] = []): Viewer {
  return { userId, role, groupIds: new Set([...systemGroupsOf(role), ...extraGroups]) };
}
