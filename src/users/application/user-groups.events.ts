import type { UserGroup, UserGroupEvent, UserGroupState } from '@app/domain/users';
import { type ClientEvent, toEveryone } from '../../shared/application/client-event.js';
import { presentGroupSetting } from '../../shared/application/group-setting-view.js';
import type { UserGroupView } from './user.ports.js';
import { presentUserGroup } from './user.views.js';

type Capability = ClientEvent['capability'];
/** Clients that list deactivated groups (they asked for include_deactivated_groups), or the others. */
const listingDeactivated = (has: boolean): Capability => ({ name: 'include_deactivated_groups', has });

/** The group as GET /user_groups and the `add` event show it. */
function viewOf(g: UserGroupState): UserGroupView {
  return {
    id: g.id,
    name: g.name,
    description: g.description,
    creatorId: g.creatorId,
    dateCreated: g.dateCreated,
    isSystemGroup: g.isSystemGroup,
    deactivated: g.deactivated,
    members: g.members,
    directSubgroupIds: g.subgroups,
    settings: g.settings,
  };
}

/**
 * The client events of what a user group recorded, in order: Zulip's `user_group` events, for
 * every active user of the organization (Zulip's active_user_ids; guests too), some only for
 * clients with or without the include_deactivated_groups capability.
 */
export function userGroupEvents(realmId: number, group: UserGroup, recorded: readonly UserGroupEvent[]): ClientEvent[] {
  const groupId = group.id;
  const send = (event: Record<string, unknown>, capability?: Capability): ClientEvent => ({
    ...toEveryone(realmId, [{ type: 'user_group', ...event }])[0],
    ...(capability ? { capability } : {}),
  });
  const update = (data: Record<string, unknown>, capability?: Capability) => send({ op: 'update', group_id: groupId, data }, capability);
  return recorded.flatMap((e): ClientEvent[] => {
    switch (e.type) {
      case 'created':
        // Zulip's do_send_create_user_group_event: the group without subgroups (those follow as add_subgroups).
        return [send({ op: 'add', group: presentUserGroup(viewOf({ ...group.snapshot(), subgroups: [] })) })];
      case 'renamed':
        // Zulip's process_user_group_name_update_event: a deactivated group's new name only reaches clients that list such groups.
        return [update({ name: e.name }, e.whileDeactivated ? listingDeactivated(true) : undefined)];
      case 'description_changed':
        return [update({ description: e.description })];
      case 'reactivated':
        return [update({ deactivated: false }, listingDeactivated(true)), send({ op: 'add', group: presentUserGroup(viewOf(e.group)) }, listingDeactivated(false))];
      case 'setting_changed':
        return [update({ [e.setting]: presentGroupSetting(e.value) })];
      case 'members_added':
        return [send({ op: 'add_members', group_id: groupId, user_ids: e.userIds })];
      case 'members_removed':
        return [send({ op: 'remove_members', group_id: groupId, user_ids: e.userIds })];
      case 'subgroups_added':
        return [send({ op: 'add_subgroups', group_id: groupId, direct_subgroup_ids: e.subgroupIds })];
      case 'subgroups_removed':
        return [send({ op: 'remove_subgroups', group_id: groupId, direct_subgroup_ids: e.subgroupIds })];
      case 'deactivated':
        // Clients that list deactivated groups keep it, marked; the others drop it.
        return [update({ deactivated: true }, listingDeactivated(true)), send({ op: 'remove', group_id: groupId }, listingDeactivated(false))];
    }
  });
}
