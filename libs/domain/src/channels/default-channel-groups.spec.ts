import {
  assertGroupInfoChange,
  channelsToAdd,
  channelsToRemove,
  checkDefaultChannelGroupName,
  checkNewDefaultChannelGroupName,
  defaultChannelGroupOp,
  planNewDefaultChannelGroup,
} from './default-channel-groups.js';

const a = { id: 1, name: 'a' };
const b = { id: 2, name: 'b' };
const c = { id: 3, name: 'c' };
const group = { id: 7, name: 'group1', description: '', channelIds: [1] };

describe('default channel groups', () => {
  it('checks a name as Zulip does', () => {
    expect(() => checkDefaultChannelGroupName(' ')).toThrow("Invalid default channel group name ' '");
    expect(() => checkDefaultChannelGroupName('x'.repeat(61))).toThrow('Default channel group name too long (limit: 60 characters)');
    expect(() => checkDefaultChannelGroupName('🙂'.repeat(60))).not.toThrow();
    expect(() => checkDefaultChannelGroupName('a\u0000')).toThrow("Default channel group name 'a\u0000' contains NULL (0x00) characters.");
  });

  it('refuses a default channel in a new group before looking at the name', () => {
    expect(() => planNewDefaultChannelGroup('', [a, b], new Set([2]))).toThrow("'b' is a default channel and cannot be added to ''");
    expect(planNewDefaultChannelGroup('g', [a, b, a], new Set())).toEqual([1, 2]);
  });

  it('adds channels one by one: a channel named twice is already there the second time', () => {
    expect(channelsToAdd(group, [b, c], new Set())).toEqual([2, 3]);
    expect(() => channelsToAdd(group, [b, a], new Set())).toThrow("Channel 'a' is already present in default channel group 'group1'");
    expect(() => channelsToAdd(group, [b, b], new Set())).toThrow("Channel 'b' is already present in default channel group 'group1'");
    expect(() => channelsToAdd(group, [c], new Set([3]))).toThrow("'c' is a default channel and cannot be added to 'group1'");
  });

  it('removes only channels in the group', () => {
    expect(channelsToRemove(group, [a, a])).toEqual([1]);
    expect(() => channelsToRemove(group, [a, b])).toThrow("Channel 'b' is not present in default channel group 'group1'");
  });

  it('checks a change of name or description, and op', () => {
    expect(() => assertGroupInfoChange(null, '')).toThrow('You must pass "new_description" or "new_group_name".');
    expect(() => assertGroupInfoChange('', 'x')).not.toThrow();
    expect(() => checkNewDefaultChannelGroupName(group, 'group1')).toThrow("This default channel group is already named 'group1'");
    expect(() => checkNewDefaultChannelGroupName(group, '')).toThrow("Invalid default channel group name ''");
    expect(defaultChannelGroupOp('remove')).toBe('remove');
    expect(() => defaultChannelGroupOp('Add')).toThrow('Invalid value for "op". Specify one of "add" or "remove".');
  });
});
