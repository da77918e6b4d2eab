import { badRequest, DomainError } from '../shared/domain-error.js';
import { codePointLength } from '../shared/text.js';

/**
 * Default channel groups (Zulip's DefaultStreamGroup, zerver/actions/default_streams.py): named
 * sets of channels offered to new users at sign-up. A default channel is never in a group (every
 * new user joins it anyway).
 */

/** Zulip's DefaultStreamGroup.MAX_NAME_LENGTH. */
export const MAX_DEFAULT_CHANNEL_GROUP_NAME_LENGTH = 60;
/** The description's column length in Zulip (max_length=1024). */
export const MAX_DEFAULT_CHANNEL_GROUP_DESCRIPTION_LENGTH = 1024;

/** A group as stored: its channels in the order the API lists them (by channel name). */
export interface DefaultChannelGroup {
  id: number;
  name: string;
  description: string;
  channelIds: number[];
}

/** A channel the request named, as the rules quote it. */
export interface NamedChannel {
  id: number;
  name: string;
}

export const defaultChannelGroupExists = (name: string): DomainError => badRequest(`Default channel group '${name}' already exists`);

/** Zulip's access_default_stream_group_by_id: unknown ids and other organizations' groups alike. */
export const defaultChannelGroupNotFound = (groupId: number): DomainError =>
  badRequest(`Default channel group with id '${groupId}' does not exist.`);

/** Zulip's check_default_stream_group_name. */
export function checkDefaultChannelGroupName(name: string): void {
  if (name.trim() === '') throw badRequest(`Invalid default channel group name '${name}'`);
  if (codePointLength(name) > MAX_DEFAULT_CHANNEL_GROUP_NAME_LENGTH) {
    throw badRequest(`Default channel group name too long (limit: ${MAX_DEFAULT_CHANNEL_GROUP_NAME_LENGTH} characters)`);
  }
  if (name.includes('\u0000')) throw badRequest(`Default channel group name '${name}' contains NULL (0x00) characters.`);
}

/** No default channel may join a group: the first one named is the error. */
export function assertNoDefaultChannels(channels: readonly NamedChannel[], defaultIds: ReadonlySet<number>, groupName: string): void {
  for (const c of channels) {
    if (defaultIds.has(c.id)) throw badRequest(`'${c.name}' is a default channel and cannot be added to '${groupName}'`);
  }
}

/**
 * Zulip's do_create_default_stream_group, before the insert: no default channel, then the name.
 * (A taken name is the insert's error.)
 */
export function planNewDefaultChannelGroup(name: string, channels: readonly NamedChannel[], defaultIds: ReadonlySet<number>): number[] {
  assertNoDefaultChannels(channels, defaultIds, name);
  checkDefaultChannelGroupName(name);
  return [...new Set(channels.map((c) => c.id))];
}

/**
 * Zulip's do_add_streams_to_default_stream_group, channel by channel: not a default channel, not
 * in the group yet (a channel named twice is there the second time). Returns the ids to add.
 */
export function channelsToAdd(group: DefaultChannelGroup, channels: readonly NamedChannel[], defaultIds: ReadonlySet<number>): number[] {
  const present = new Set(group.channelIds);
  const added: number[] = [];
  for (const c of channels) {
    if (defaultIds.has(c.id)) throw badRequest(`'${c.name}' is a default channel and cannot be added to '${group.name}'`);
    if (present.has(c.id)) throw badRequest(`Channel '${c.name}' is already present in default channel group '${group.name}'`);
    present.add(c.id);
    added.push(c.id);
  }
  return added;
}

/** Zulip's do_remove_streams_from_default_stream_group: every channel named must be in the group. */
export function channelsToRemove(group: DefaultChannelGroup, channels: readonly NamedChannel[]): number[] {
  const present = new Set(group.channelIds);
  for (const c of channels) {
    if (!present.has(c.id)) throw badRequest(`Channel '${c.name}' is not present in default channel group '${group.name}'`);
  }
  return [...new Set(channels.map((c) => c.id))];
}

/** PATCH /default_stream_groups/{id}: at least one of the two, non-empty (Zulip's `if not … and not …`). */
export function assertGroupInfoChange(newName: string | null, newDescription: string | null): void {
  if (!newName && !newDescription) throw badRequest('You must pass "new_description" or "new_group_name".');
}

/**
 * Zulip's do_change_default_stream_group_name (the same name again is an error); the new name is
 * checked as a new group's is (Zulip stores it unchecked).
 */
export function checkNewDefaultChannelGroupName(group: DefaultChannelGroup, newName: string): void {
  if (group.name === newName) throw badRequest(`This default channel group is already named '${newName}'`);
  checkDefaultChannelGroupName(newName);
}

/** The `op` of PATCH /default_stream_groups/{id}/streams, checked after the group and the channels. */
export function defaultChannelGroupOp(op: string): 'add' | 'remove' {
  if (op === 'add' || op === 'remove') return op;
  throw badRequest('Invalid value for "op". Specify one of "add" or "remove".');
}
