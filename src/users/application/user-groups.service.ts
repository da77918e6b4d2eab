import { USER_GROUP_SETTING_NAMES, type UserGroupSettingName } from '@app/domain/realm';
import {
  type Actor,
  assertGroupEditGiven,
  assertSomethingToDo,
  assertSubgroupChangeGiven,
  type GroupActor,
  type GroupSettingValue,
  groupSettingReferences,
  invalidUserGroup,
  type MembershipChange,
  type NamedFacts,
  type NewUserGroup,
  noSuchUser,
  SystemGroup,
  UserGroup,
  type UserGroupEdit,
} from '@app/domain/users';
import { Injectable } from '@nestjs/common';
import { Clock } from '../../shared/application/clock.js';
import { type Tx, UnitOfWork } from '../../shared/application/unit-of-work.js';
import { SettingHolder } from './permissions.js';
import { ChannelGroupUsage, type UserGroupView, UserQueries } from './user.ports.js';
import { userGroupEvents } from './user-groups.events.js';

/**
 * User groups: each change loads the group (row-locked) and the facts its rules need, lets the
 * UserGroup aggregate decide, saves it and queues its `user_group` events for after the commit.
 */
@Injectable()
export class UserGroupsService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly queries: UserQueries,
    private readonly clock: Clock,
    private readonly channelUsage: ChannelGroupUsage,
  ) {}

  listGroups(actor: Actor, includeDeactivated: boolean): Promise<UserGroupView[]> {
    return this.queries.listGroups(actor.realmId, includeDeactivated);
  }

  /** Guard-time check of @RequireRealmSetting: does the actor hold the organization setting? */
  holdsRealmSetting(actor: Actor, setting: string): Promise<boolean> {
    return this.uow.run((tx) => new SettingHolder(actor, tx.realms, tx.groups).holdsRealmSetting(setting));
  }

  /** POST /user_groups/create. */
  async createGroup(actor: Actor, input: NewUserGroup): Promise<number> {
    return this.uow.run(async (tx) => {
      const realmId = actor.realmId;
      const systemGroups = await tx.groupSettings.systemGroupIds(realmId);
      const named = groupSettingReferences(Object.values(input.settings), systemGroups.get(SystemGroup.NOBODY)!);
      const facts = await this.namedFacts(tx, realmId, [...input.members, ...named.userIds], [...input.subgroups, ...named.groupIds]);
      const nameTaken = await tx.groups.namedGroupExists(realmId, input.name);
      const group = UserGroup.create(input, { realmId, creatorId: actor.userId, now: this.clock.now() }, { ...facts, systemGroups, nameTaken });
      await tx.groups.insert(group, await this.storeSettings(tx, group, USER_GROUP_SETTING_NAMES));
      tx.afterCommit(userGroupEvents(realmId, group, group.pullEvents()));
      return group.id;
    });
  }

  /** POST /user_groups/{id}/members. */
  async updateMembers(actor: Actor, groupId: number, change: MembershipChange): Promise<void> {
    assertSomethingToDo(change);
    await this.uow.run(async (tx) => {
      const group = await this.load(tx, actor, groupId);
      const facts = await this.namedFacts(tx, actor.realmId, [...change.add, ...change.delete], [...change.addSubgroups, ...change.deleteSubgroups]);
      const ancestorIds = change.addSubgroups.length > 0 ? await tx.groups.ancestorIds(groupId) : new Set<number>();
      group.changeMembership(change, await this.groupActor(tx, actor), { ...facts, ancestorIds });
      await tx.groups.save(group, {});
      tx.afterCommit(userGroupEvents(actor.realmId, group, group.pullEvents()));
    });
  }

  /**
   * POST /user_groups/{id}/subgroups (Zulip's update_subgroups_of_user_group): the subgroup half
   * of POST /user_groups/{id}/members, with the same checks, permissions and events.
   */
  async updateSubgroups(actor: Actor, groupId: number, add: number[], remove: number[]): Promise<void> {
    assertSubgroupChangeGiven(add, remove);
    await this.updateMembers(actor, groupId, { add: [], delete: [], addSubgroups: add, deleteSubgroups: remove });
  }

  /**
   * PATCH /user_groups/{id} (Zulip's edit_user_group): name, description, reactivation
   * (`deactivated=false`), then each permission setting, all in one transaction; one `update`
   * event per change, in that order. Unchanged values are no change and send nothing.
   */
  async updateGroup(actor: Actor, groupId: number, edit: UserGroupEdit): Promise<void> {
    assertGroupEditGiven(edit);
    await this.uow.run(async (tx) => {
      const realmId = actor.realmId;
      const group = await this.load(tx, actor, groupId);
      const nobodyGroupId = (await tx.groupSettings.systemGroupIds(realmId)).get(SystemGroup.NOBODY)!;
      const values = USER_GROUP_SETTING_NAMES.flatMap((s): (GroupSettingValue | undefined)[] => [edit.settings[s]?.new, edit.settings[s]?.old]);
      const named = groupSettingReferences(values, nobodyGroupId);
      const nameTaken = edit.name !== undefined && edit.name !== group.name && (await tx.groups.namedGroupExists(realmId, edit.name));
      const facts = { ...(await this.namedFacts(tx, realmId, named.userIds, named.groupIds)), nobodyGroupId, nameTaken };
      group.edit(edit, await this.groupActor(tx, actor), facts);
      await tx.groups.save(group, await this.storeSettings(tx, group, group.pendingChanges().settings));
      tx.afterCommit(userGroupEvents(realmId, group, group.pullEvents()));
    });
  }

  /**
   * POST /user_groups/{id}/deactivate (Zulip's do_deactivate_user_group), with where the group is
   * in use: its active supergroups, and the settings of channels, groups and the organization.
   */
  async deactivateGroup(actor: Actor, groupId: number): Promise<void> {
    await this.uow.run(async (tx) => {
      const realmId = actor.realmId;
      const group = await this.load(tx, actor, groupId);
      const usage = await tx.groups.usage(realmId, groupId);
      group.deactivate(await this.groupActor(tx, actor), {
        supergroupIds: usage.supergroupIds,
        channels: await this.channelUsage.channelsUsing(tx, realmId, usage.settingGroupIds),
        groups: usage.groups,
        realmSettings: await tx.realms.groupSettings(realmId),
      });
      await tx.groups.save(group, {});
      tx.afterCommit(userGroupEvents(realmId, group, group.pullEvents()));
    });
  }

  /** GET /user_groups/{id}/members (Zulip's get_user_group_members): active members, recursively unless direct only. */
  async members(actor: Actor, groupId: number, directOnly: boolean): Promise<number[]> {
    return this.uow.run(async (tx) => {
      await this.assertNamedGroup(tx, actor, groupId);
      return tx.groups.memberIds(groupId, directOnly);
    });
  }

  /** GET /user_groups/{id}/subgroups (Zulip's get_subgroups_of_user_group). */
  async subgroups(actor: Actor, groupId: number, directOnly: boolean): Promise<number[]> {
    return this.uow.run(async (tx) => {
      await this.assertNamedGroup(tx, actor, groupId);
      return tx.groups.subgroupIdsOf(groupId, directOnly);
    });
  }

  /** GET /user_groups/{gid}/members/{uid}. */
  async isMember(actor: Actor, groupId: number, userId: number, directOnly: boolean): Promise<boolean> {
    return this.uow.run(async (tx) => {
      await this.assertNamedGroup(tx, actor, groupId);
      const user = await tx.users.findById(actor.realmId, userId);
      if (user === null || user.isBot) throw noSuchUser();
      if (!user.isActive) return false;
      return tx.groups.isMember(groupId, userId, directOnly);
    });
  }

  /** An unknown group, an anonymous one or another organization's is `Invalid user group`. */
  private async load(tx: Tx, actor: Actor, groupId: number): Promise<UserGroup> {
    const group = await tx.groups.getForUpdate(actor.realmId, groupId);
    if (group === null) throw invalidUserGroup();
    return group;
  }

  private async assertNamedGroup(tx: Tx, actor: Actor, groupId: number): Promise<void> {
    const group = await tx.groups.find(actor.realmId, groupId);
    if (group === null || group.name === null) throw invalidUserGroup();
  }

  /** The caller as the group rules see them: their groups and whether they hold can_manage_all_groups' value. */
  private async groupActor(tx: Tx, actor: Actor): Promise<GroupActor> {
    return {
      userId: actor.userId,
      role: actor.role,
      groupIds: await tx.groups.groupIdsOfUser(actor.userId, actor),
      canManageAllGroups: await tx.realms.groupSetting(actor.realmId, 'can_manage_all_groups', actor),
    };
  }

  /** The groups and the active users among those a request names. */
  private async namedFacts(tx: Tx, realmId: number, userIds: readonly number[], groupIds: readonly number[]): Promise<NamedFacts> {
    return { groups: await tx.groupSettings.groupFacts(realmId, groupIds), activeUserIds: await tx.groupSettings.activeUserIds(realmId, userIds) };
  }

  /** Stores the settings' values (an anonymous value becomes a new group), in setting order. */
  private async storeSettings(tx: Tx, group: UserGroup, settings: readonly UserGroupSettingName[]): Promise<Partial<Record<UserGroupSettingName, number>>> {
    const stored: Partial<Record<UserGroupSettingName, number>> = {};
    for (const s of USER_GROUP_SETTING_NAMES) if (settings.includes(s)) stored[s] = await tx.groupSettings.store(group.realmId, group.settings[s]);
    return stored;
  }
}
