import { Role } from './role.js';

export const SystemGroup = {
  NOBODY: 'role:nobody',
  OWNERS: 'role:owners',
  ADMINISTRATORS: 'role:administrators',
  MODERATORS: 'role:moderators',
  FULL_MEMBERS: 'role:fullmembers',
  MEMBERS: 'role:members',
  EVERYONE: 'role:everyone',
  INTERNET: 'role:internet',
} as const;
export type SystemGroupName = (typeof SystemGroup)[keyof typeof SystemGroup];

export interface SystemGroupDefinition {
  readonly name: SystemGroupName;
  readonly description: string;
  /** The system group this one is a direct subgroup of (null for the top and for nobody). */
  readonly parent: SystemGroupName | null;
}

/** In Zulip's creation order, which is also id order. */
export const SYSTEM_GROUPS: readonly SystemGroupDefinition[] = [
  { name: SystemGroup.NOBODY, description: 'Nobody', parent: null },
  { name: SystemGroup.OWNERS, description: 'Owners of this organization', parent: SystemGroup.ADMINISTRATORS },
  {
    name: SystemGroup.ADMINISTRATORS,
    description: 'Administrators of this organization, including owners',
    parent: SystemGroup.MODERATORS,
  },
  {
    name: SystemGroup.MODERATORS,
    description: 'Moderators of this organization, including administrators',
    parent: SystemGroup.FULL_MEMBERS,
  },
  {
    name: SystemGroup.FULL_MEMBERS,
    description: 'Members of this organization, not including new accounts and guests',
    parent: SystemGroup.MEMBERS,
  },
  {
    name: SystemGroup.MEMBERS,
    description: 'Members of this organization, not including guests',
    parent: SystemGroup.EVERYONE,
  },
  {
    name: SystemGroup.EVERYONE,
    description: 'Everyone in this organization, including guests',
    parent: SystemGroup.INTERNET,
  },
  { name: SystemGroup.INTERNET, description: 'Everyone on the Internet', parent: null },
];

const ROLE_GROUP: Record<Role, SystemGroupName> = {
  [Role.OWNER]: SystemGroup.OWNERS,
  [Role.ADMINISTRATOR]: SystemGroup.ADMINISTRATORS,
  [Role.MODERATOR]: SystemGroup.MODERATORS,
  [Role.MEMBER]: SystemGroup.MEMBERS,
  [Role.GUEST]: SystemGroup.EVERYONE,
};

/**
 * "Full member": at least moderator, or a member whose account is at least
 * `waitingPeriodDays` old.
 */
export function isFullMember(role: Role, dateJoined: Date, waitingPeriodDays: number, now: Date): boolean {
  if (role <= Role.MODERATOR) return true;
  if (role !== Role.MEMBER) return false;
  const ageDays = (now.getTime() - dateJoined.getTime()) / 86_400_000;
  return ageDays >= waitingPeriodDays;
}

/**
 * The system groups a user is a *direct* member of. Everything else follows through the
 * subgroup chain (owners ⊂ administrators ⊂ moderators ⊂ fullmembers ⊂ members ⊂ everyone).
 */
export function directSystemGroupsFor(role: Role, fullMember: boolean): SystemGroupName[] {
  const groups = [ROLE_GROUP[role]];
  if (role === Role.MEMBER && fullMember) groups.push(SystemGroup.FULL_MEMBERS);
  return groups;
}

export function isSystemGroupName(name: string): name is SystemGroupName {
  return SYSTEM_GROUPS.some((g) => g.name === name);
}
