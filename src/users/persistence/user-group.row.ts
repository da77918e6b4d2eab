import type { UserGroupSettingName } from '@app/domain/realm';
import type { SystemGroupName } from '@app/domain/users';
import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

@Entity({ name: 'user_groups' })
export class UserGroupRow {
  @PrimaryGeneratedColumn() id: number;
  @Column({ name: 'realm_id' }) realmId: number;
  @Column({ type: 'text', nullable: true }) name: string | null;
  @Column() description: string;
  @Column({ name: 'is_system_group' }) isSystemGroup: boolean;
  @Column({ name: 'creator_id', type: 'integer', nullable: true }) creatorId: number | null;
  @Column({ name: 'date_created', type: 'timestamptz', nullable: true }) dateCreated: Date | null;
  @Column() deactivated: boolean;
  @Column({ name: 'can_add_members_group_id', type: 'integer', nullable: true }) canAddMembersGroupId: number | null;
  @Column({ name: 'can_join_group_id', type: 'integer', nullable: true }) canJoinGroupId: number | null;
  @Column({ name: 'can_leave_group_id', type: 'integer', nullable: true }) canLeaveGroupId: number | null;
  @Column({ name: 'can_manage_group_id', type: 'integer', nullable: true }) canManageGroupId: number | null;
  @Column({ name: 'can_mention_group_id', type: 'integer', nullable: true }) canMentionGroupId: number | null;
  @Column({ name: 'can_remove_members_group_id', type: 'integer', nullable: true })
  canRemoveMembersGroupId: number | null;
}

/*
 * The row types of the user-group adapter's SQL (typeorm-user-group.repository.ts), one per
 * statement shape.
 */

/** A setting's column: `can_manage_group` → `can_manage_group_id`. */
export const settingColumn = <S extends UserGroupSettingName>(setting: S): `${S}_id` => `${setting}_id`;

/** The setting columns of a group: the stored group each setting points at (null on anonymous groups). */
export type UserGroupSettingColumns = { [S in UserGroupSettingName as `${S}_id`]: number | null };

/** `SELECT * FROM user_groups`. */
export interface UserGroupTableRow extends UserGroupSettingColumns {
  id: number;
  realm_id: number;
  name: string | null;
  description: string;
  is_system_group: boolean;
  creator_id: number | null;
  date_created: Date | null;
  deactivated: boolean;
}

/** A loaded group's links and the contents of the anonymous groups its settings point at (see anonymousGroupsColumn). */
export interface UserGroupLinksRow {
  members: number[];
  subgroups: number[];
  anonymous: Record<string, { members: number[]; subgroups: number[] }>;
}

export interface GroupIdRow {
  id: number;
}

export interface SystemGroupIdRow {
  id: number;
  name: SystemGroupName;
}

export interface MemberIdRow {
  user_id: number;
}

/** One group of one user (groupIdsOfUsers). */
export interface UserGroupIdRow {
  user_id: number;
  id: number;
}

/** `SELECT 1 AS found`: the row exists. */
export interface FoundRow {
  found: number;
}

/** A group with its active direct members and its subgroups (a setting's value). */
export interface GroupContentsRow {
  name: string | null;
  members: number[];
  subgroups: number[];
}

/** A direct supergroup of a group being deactivated. */
export interface SupergroupRow {
  id: number;
  named: boolean;
  deactivated: boolean;
}

/** A named group whose settings may hold a group being deactivated. */
export interface SettingHolderRow extends UserGroupSettingColumns {
  id: number;
}
