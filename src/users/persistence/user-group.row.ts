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
