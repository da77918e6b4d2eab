import { insufficientPermission } from '@app/domain/shared';
import { REALM_GROUP_SETTING_NAMES, USER_GROUP_SETTING_NAMES, USER_GROUP_SETTINGS, type UserGroupSettingName } from '@app/domain/realm';
import {
  type Actor,
  assertCanAddMembers,
  assertCanAddSubgroups,
  assertCanRemoveMembers,
  assertCanRemoveSubgroups,
  assertGroupNotInUse,
  assertSomethingToDo,
  assertSubgroupChangeGiven,
  checkUserGroupName,
  expectationMismatch,
  type GroupObjection,
  groupSettingEquals,
  type GroupSettingValue,
  isGuest,
  noNewGroupData,
  invalidUserGroup,
  invalidUserGroupId,
  invalidUserId,
  type MembershipChange,
  normaliseGroupSetting,
  noSuchUser,
  SystemGroup,
  userGroupAlreadyExists,
  userGroupDeactivated,
} from '@app/domain/users';
import { Injectable } from '@nestjs/common';
import { assertValidGroupSetting } from '../../shared/application/group-setting-store.js';
import { type ClientEvent, toEveryone } from '../../shared/application/client-event.js';
import { Clock } from '../../shared/application/clock.js';
import { type Tx, UnitOfWork } from '../../shared/application/unit-of-work.js';
import { presentUserGroup } from './user.views.js';
import { SettingHolder } from './permissions.js';
import { ChannelGroupUsage, type UserGroupRecord, type UserGroupView, UserQueries } from './user.ports.js';
import { presentGroupSetting } from '../../shared/application/group-setting-view.js';

/** PATCH /user_groups/{id}: the fields given (settings as {new, old} updates). */
export interface UpdateGroupInput {
  name?: string;
  description?: string;
  deactivated?: boolean;
  settings: Partial<Record<UserGroupSettingName, { new: GroupSettingValue; old?: GroupSettingValue }>>;
}

export interface CreateGroupInput {
  name: string;
  description: string;
  members: number[];
  subgroups: number[];
  settings: Partial<Record<UserGroupSettingName, GroupSettingValue>>;
}

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
  async createGroup(actor: Actor, input: CreateGroupInput): Promise<number> {
    return this.uow.run(async (tx) => {
      const realmId = actor.realmId;
      const active = await tx.groupSettings.activeUserIds(realmId, input.members);
      for (const id of input.members) if (!active.has(id)) throw invalidUserId(id);
      const name = checkUserGroupName(input.name);
      const system = await tx.groupSettings.systemGroupIds(realmId);
      const nobody = system.get(SystemGroup.NOBODY)!;
      const settings: Record<string, number> = {};
      const values: Record<string, GroupSettingValue> = {};
      for (const [setting, def] of Object.entries(USER_GROUP_SETTINGS)) {
        const given = input.settings[setting as UserGroupSettingName];
        let value: GroupSettingValue;
        if (given !== undefined) {
          value = normaliseGroupSetting(given, nobody);
          await this.validateSetting(tx, realmId, setting, value, def.config);
        } else {
          value = def.default === 'group_creator' ? { directMembers: [actor.userId], directSubgroups: [] } : system.get(def.default)!;
        }
        settings[setting] = await tx.groupSettings.store(realmId, value);
        values[setting] = value;
      }
      if (await tx.groups.namedGroupExists(realmId, name)) throw userGroupAlreadyExists(name);
      const dateCreated = this.clock.now();
      const groupId = await tx.groups.createNamed({
        realmId,
        name,
        description: input.description,
        creatorId: actor.userId,
        dateCreated,
        settings,
      });
      await tx.groups.addMembers(realmId, groupId, input.members);
      // Zulip's do_send_create_user_group_event: the group without subgroups (those follow as add_subgroups).
      const group: UserGroupView = {
        id: groupId,
        name,
        description: input.description,
        creatorId: actor.userId,
        dateCreated,
        isSystemGroup: false,
        deactivated: false,
        members: [...new Set(input.members)].sort((a, b) => a - b),
        directSubgroupIds: [],
        settings: values,
      };
      const events: ClientEvent['event'][] = [{ type: 'user_group', op: 'add', group: presentUserGroup(group) }];
      if (input.subgroups.length > 0) {
        const facts = await tx.groupSettings.groupFacts(realmId, input.subgroups);
        for (const id of input.subgroups) {
          const g = facts.get(id);
          if (!g || g.name === '') throw invalidUserGroupId(id);
          if (g.deactivated) throw userGroupDeactivated();
        }
        await tx.groups.addSubgroups(realmId, groupId, input.subgroups);
        events.push({ type: 'user_group', op: 'add_subgroups', group_id: groupId, direct_subgroup_ids: input.subgroups });
      }
      await this.notify(tx, realmId, events);
      return groupId;
    });
  }

  /** POST /user_groups/{id}/members. */
  async updateMembers(actor: Actor, groupId: number, change: MembershipChange): Promise<void> {
    assertSomethingToDo(change);
    await this.uow.run(async (tx) => {
      const realmId = actor.realmId;
      const group = await tx.groups.find(realmId, groupId, true);
      if (group === null || group.name === null) throw invalidUserGroup();
      if (group.isSystemGroup) throw insufficientPermission();
      await this.assertCanUpdate(tx, actor, group.settings, change);

      const members = await tx.groups.directMemberIds(groupId);
      const touched = [...change.add, ...change.delete];
      const active = await tx.groupSettings.activeUserIds(realmId, touched);
      for (const id of touched) if (!active.has(id)) throw invalidUserId(id);
      assertCanAddMembers(change.add, members);
      assertCanRemoveMembers(change.delete, members);

      const subgroups = await tx.groups.directSubgroupIds(groupId);
      const requested = [...change.addSubgroups, ...change.deleteSubgroups];
      const facts = await tx.groupSettings.groupFacts(realmId, requested);
      for (const id of requested) {
        const g = facts.get(id);
        if (!g || g.name === '') throw invalidUserGroupId(id);
      }
      if (change.addSubgroups.length > 0) {
        assertCanAddSubgroups(groupId, change.addSubgroups, subgroups, await tx.groups.ancestorIds(groupId));
      }
      assertCanRemoveSubgroups(change.deleteSubgroups, subgroups);

      await tx.groups.addMembers(realmId, groupId, change.add);
      await tx.groups.removeMembers(groupId, change.delete);
      await tx.groups.addSubgroups(realmId, groupId, change.addSubgroups);
      await tx.groups.removeSubgroups(groupId, change.deleteSubgroups);
      // Zulip's update_user_group_backend: one event per kind of change, in this order, with the ids as sent.
      const events: ClientEvent['event'][] = [];
      if (change.add.length > 0) events.push({ type: 'user_group', op: 'add_members', group_id: groupId, user_ids: change.add });
      if (change.delete.length > 0) events.push({ type: 'user_group', op: 'remove_members', group_id: groupId, user_ids: change.delete });
      if (change.addSubgroups.length > 0) {
        events.push({ type: 'user_group', op: 'add_subgroups', group_id: groupId, direct_subgroup_ids: change.addSubgroups });
      }
      if (change.deleteSubgroups.length > 0) {
        events.push({ type: 'user_group', op: 'remove_subgroups', group_id: groupId, direct_subgroup_ids: change.deleteSubgroups });
      }
      await this.notify(tx, realmId, events);
    });
  }

  /**
   * Zulip's access_user_group_for_update with can_manage_group: an unknown group (or another
   * organization's) is `Invalid user group`; system groups and callers who hold neither the
   * organization's can_manage_all_groups nor the group's can_manage_group (never guests) get
   * `Insufficient permission`. Locks the group's row.
   */
  private async accessForManagement(tx: Tx, actor: Actor, groupId: number, allowDeactivated: boolean): Promise<UserGroupRecord & { name: string }> {
    const group = await tx.groups.find(actor.realmId, groupId, true);
    if (group === null || group.name === null) throw invalidUserGroup();
    if (!allowDeactivated && group.deactivated) throw userGroupDeactivated();
    if (group.isSystemGroup || isGuest(actor.role)) throw insufficientPermission();
    const holder = new SettingHolder(actor, tx.realms, tx.groups);
    if (!(await holder.holdsRealmSetting('can_manage_all_groups')) && !(await holder.holdsGroup(group.settings.can_manage_group))) {
      throw insufficientPermission();
    }
    return group as UserGroupRecord & { name: string };
  }

  /** The group as the `user_group` `add` event and GET /user_groups show it, read on the transaction. */
  private async groupView(tx: Tx, group: UserGroupRecord & { name: string }): Promise<UserGroupView> {
    const settingIds = USER_GROUP_SETTING_NAMES.map((s) => group.settings[s]!);
    const values = await tx.groups.settingValuesOf(settingIds);
    return {
      id: group.id,
      name: group.name,
      description: group.description,
      creatorId: group.creatorId,
      dateCreated: group.dateCreated,
      isSystemGroup: false,
      deactivated: false,
      members: [...(await tx.groups.directMemberIds(group.id))].sort((a, b) => a - b),
      directSubgroupIds: [...(await tx.groups.directSubgroupIds(group.id))].sort((a, b) => a - b),
      settings: Object.fromEntries(USER_GROUP_SETTING_NAMES.map((s) => [s, values.get(group.settings[s]!)!])),
    };
  }

  /**
   * PATCH /user_groups/{id} (Zulip's edit_user_group): name, description, reactivation
   * (`deactivated=false`), then each permission setting, all in one transaction; one `update`
   * event per change, in that order. Unchanged values are no change and send nothing.
   */
  async updateGroup(actor: Actor, groupId: number, input: UpdateGroupInput): Promise<void> {
    const settingUpdates = USER_GROUP_SETTING_NAMES.filter((s) => input.settings[s] !== undefined);
    if (input.name === undefined && input.description === undefined && input.deactivated === undefined && settingUpdates.length === 0) {
      throw noNewGroupData();
    }
    await this.uow.run(async (tx) => {
      const realmId = actor.realmId;
      const group = await this.accessForManagement(tx, actor, groupId, true);
      const events: ClientEvent[] = [];
      const update = (data: Record<string, unknown>, capability?: ClientEvent['capability']): ClientEvent => ({
        ...toEveryone(realmId, [{ type: 'user_group', op: 'update', group_id: groupId, data }])[0],
        ...(capability ? { capability } : {}),
      });
      const change: { name?: string; description?: string; deactivated?: boolean; settings: Record<string, number> } = { settings: {} };
      if (input.name !== undefined && input.name !== group.name) {
        const name = checkUserGroupName(input.name);
        if (await tx.groups.namedGroupExists(realmId, name)) throw userGroupAlreadyExists(name);
        change.name = name;
        // Zulip's process_user_group_name_update_event: a deactivated group's new name only reaches clients that list such groups.
        events.push(update({ name }, group.deactivated ? { name: 'include_deactivated_groups', has: true } : undefined));
      }
      if (input.description !== undefined && input.description !== group.description) {
        change.description = input.description;
        events.push(update({ description: input.description }));
      }
      if (input.deactivated === false && group.deactivated) {
        change.deactivated = false;
        events.push(update({ deactivated: false }, { name: 'include_deactivated_groups', has: true }));
        const view = await this.groupView(tx, { ...group, name: change.name ?? group.name, description: change.description ?? group.description });
        events.push({
          ...toEveryone(realmId, [{ type: 'user_group', op: 'add', group: presentUserGroup(view) }])[0],
          capability: { name: 'include_deactivated_groups', has: false },
        });
      }
      if (settingUpdates.length > 0) {
        const nobody = (await tx.groupSettings.systemGroupIds(realmId)).get(SystemGroup.NOBODY)!;
        const current = await tx.groups.settingValuesOf(settingUpdates.map((s) => group.settings[s]!));
        for (const setting of settingUpdates) {
          const { new: wanted, old } = input.settings[setting]!;
          const now = current.get(group.settings[setting]!)!;
          const next = normaliseGroupSetting(wanted, nobody);
          if (old !== undefined && !groupSettingEquals(normaliseGroupSetting(old, nobody), now)) throw expectationMismatch();
          if (groupSettingEquals(next, now)) continue;
          await this.validateSetting(tx, realmId, setting, next, USER_GROUP_SETTINGS[setting].config);
          change.settings[setting] = await tx.groupSettings.store(realmId, next);
          events.push(update({ [setting]: presentGroupSetting(next) }));
        }
      }
      await tx.groups.update(groupId, change);
      tx.afterCommit(events);
    });
  }

  /**
   * POST /user_groups/{id}/deactivate (Zulip's do_deactivate_user_group): refused while the group
   * is a subgroup of an active group or held by a channel's, a group's or the organization's
   * setting. Clients that list deactivated groups get `update` `{deactivated: true}`, the others `remove`.
   */
  async deactivateGroup(actor: Actor, groupId: number): Promise<void> {
    await this.uow.run(async (tx) => {
      const realmId = actor.realmId;
      await this.accessForManagement(tx, actor, groupId, false);
      const usage = await tx.groups.usage(realmId, groupId);
      const objections: GroupObjection[] = [];
      if (usage.supergroupIds.length > 0) objections.push({ type: 'subgroup', supergroup_ids: usage.supergroupIds });
      for (const c of await this.channelUsage.channelsUsing(tx, realmId, usage.settingGroupIds)) {
        objections.push({ type: 'channel', channel_id: c.channelId, settings: c.settings });
      }
      for (const g of usage.groups) objections.push({ type: 'user_group', group_id: g.groupId, settings: g.settings });
      const realmSettings = await tx.realms.groupSettings(realmId);
      // A realm setting uses the group when it is the group, or an anonymous group with it as a direct subgroup.
      const realmUses = REALM_GROUP_SETTING_NAMES.filter((s) => {
        const v = realmSettings[s];
        return v === groupId || (typeof v === 'object' && v !== null && v.directSubgroups.includes(groupId));
      });
      if (realmUses.length > 0) objections.push({ type: 'realm', settings: realmUses });
      assertGroupNotInUse(objections);
      await tx.groups.update(groupId, { deactivated: true });
      tx.afterCommit([
        {
          ...toEveryone(realmId, [{ type: 'user_group', op: 'update', group_id: groupId, data: { deactivated: true } }])[0],
          capability: { name: 'include_deactivated_groups', has: true },
        },
        { ...toEveryone(realmId, [{ type: 'user_group', op: 'remove', group_id: groupId }])[0], capability: { name: 'include_deactivated_groups', has: false } },
      ]);
    });
  }

  /** user_group events go to every active user of the organization (Zulip's active_user_ids; guests too). */
  private async notify(tx: Tx, realmId: number, events: ClientEvent['event'][]): Promise<void> {
    if (events.length === 0) return;
    tx.afterCommit(toEveryone(realmId, events));
  }

  /** GET /user_groups/{id}/members (Zulip's get_user_group_members): active members, recursively unless direct only. */
  async members(actor: Actor, groupId: number, directOnly: boolean): Promise<number[]> {
    return this.uow.run(async (tx) => {
      const group = await tx.groups.find(actor.realmId, groupId);
      if (group === null || group.name === null) throw invalidUserGroup();
      return tx.groups.memberIds(groupId, directOnly);
    });
  }

  /** GET /user_groups/{id}/subgroups (Zulip's get_subgroups_of_user_group). */
  async subgroups(actor: Actor, groupId: number, directOnly: boolean): Promise<number[]> {
    return this.uow.run(async (tx) => {
      const group = await tx.groups.find(actor.realmId, groupId);
      if (group === null || group.name === null) throw invalidUserGroup();
      return tx.groups.subgroupIdsOf(groupId, directOnly);
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

  /** GET /user_groups/{gid}/members/{uid}. */
  async isMember(actor: Actor, groupId: number, userId: number, directOnly: boolean): Promise<boolean> {
    return this.uow.run(async (tx) => {
      const group = await tx.groups.find(actor.realmId, groupId);
      if (group === null || group.name === null) throw invalidUserGroup();
      const user = await tx.users.findById(actor.realmId, userId);
      if (user === null || user.isBot) throw noSuchUser();
      if (!user.isActive) return false;
      return tx.groups.isMember(groupId, userId, directOnly);
    });
  }

  private async validateSetting(
    tx: Tx,
    realmId: number,
    setting: string,
    value: GroupSettingValue,
    config: (typeof USER_GROUP_SETTINGS)[UserGroupSettingName]['config'],
  ): Promise<void> {
    await assertValidGroupSetting(tx.groupSettings, realmId, setting, value, config);
  }

  /**
   * Zulip's access_user_group_for_update: can_manage_all_groups or the group's
   * can_manage_group allow everything; otherwise each kind of change needs its own setting.
   */
  private async assertCanUpdate(
    tx: Tx,
    actor: Actor,
    settings: Record<string, number | null>,
    change: MembershipChange,
  ): Promise<void> {
    const holder = new SettingHolder(actor, tx.realms, tx.groups);
    if ((await holder.holdsRealmSetting('can_manage_all_groups')) || (await holder.holdsGroup(settings.can_manage_group))) {
      return;
    }
    const onlySelf = (ids: number[]) => ids.length > 0 && ids.every((id) => id === actor.userId);
    const allowed = async (): Promise<boolean> => {
      if (change.add.length > 0) {
        const ok =
          (onlySelf(change.add) && (await holder.holdsGroup(settings.can_join_group))) ||
          (await holder.holdsGroup(settings.can_add_members_group));
        if (!ok) return false;
      }
      if (change.delete.length > 0) {
        const ok =
          (onlySelf(change.delete) && (await holder.holdsGroup(settings.can_leave_group))) ||
          (await holder.holdsGroup(settings.can_remove_members_group));
        if (!ok) return false;
      }
      if (change.addSubgroups.length > 0 && !(await holder.holdsGroup(settings.can_add_members_group))) return false;
      if (change.deleteSubgroups.length > 0) return false; // only managers may remove subgroups
      return true;
    };
    if (!(await allowed())) throw insufficientPermission();
  }
}
