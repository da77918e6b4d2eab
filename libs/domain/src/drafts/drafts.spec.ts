import type { ChannelGroupSettings } from '../channels/channel-settings.js';
import { Role } from '../users/role.js';
import {
  assertDraftChannelAccessible,
  checkDraft,
  Draft,
  type DraftInput,
  directDraftRecipients,
  normaliseDraftContent,
  resolvedDraft,
  truncateText,
} from './draft.js';
import { snippetText } from './saved-snippet.js';

const NOW = 1_700_000_000.123456;
const draft = (o: Partial<DraftInput> = {}): DraftInput => ({ type: 'stream', to: [7], topic: 'lunch', content: 'hi', timestamp: null, ...o });

describe('draft content', () => {
  it('drops trailing whitespace and leading newlines, keeps leading spaces', () => {
    expect(normaliseDraftContent('\n\n  indented\n\n')).toBe('  indented');
  });
  it('refuses NUL and empty bodies', () => {
    expect(() => normaliseDraftContent('a\0b')).toThrow('Message must not contain null bytes');
    expect(() => normaliseDraftContent('\n \n')).toThrow('Message must not be empty');
  });
  it('truncates beyond 10000 code points with a marker', () => {
    const out = normaliseDraftContent('😀'.repeat(10_001));
    expect(Array.from(out)).toHaveLength(10_000);
    expect(out.endsWith('\n[message truncated]')).toBe(true);
    expect(normaliseDraftContent('x'.repeat(10_000))).toHaveLength(10_000);
  });
  it('truncates by code points', () => {
    expect(truncateText('abcdef', 5, '...')).toBe('ab...');
    expect(truncateText('abcde', 5, '...')).toBe('abcde');
  });
});

describe('checkDraft', () => {
  it('fills the timestamp with now, rounded to microseconds', () => {
    expect(checkDraft(draft(), NOW).timestamp).toBe(1_700_000_000.123456);
    expect(checkDraft(draft({ timestamp: 1.00000049 }), NOW).timestamp).toBe(1);
    expect(checkDraft(draft({ timestamp: 15 }), NOW).timestamp).toBe(15);
  });
  it('refuses negative and absurd timestamps', () => {
    expect(() => checkDraft(draft({ timestamp: -1 }), NOW)).toThrow('Timestamp must not be negative.');
    expect(checkDraft(draft({ timestamp: -0.0000001 }), NOW).timestamp).toBe(-0);
    expect(() => checkDraft(draft({ timestamp: 1e13 }), NOW)).toThrow('Timestamp is too large.');
  });
  it('checks content before the timestamp, and both before the channel rules', () => {
    expect(() => checkDraft(draft({ content: '\0', timestamp: -5, to: [] }), NOW)).toThrow('null bytes');
    expect(() => checkDraft(draft({ timestamp: -5, to: [] }), NOW)).toThrow('Timestamp must not be negative.');
  });
  it('channel drafts: truncated topic without NUL, exactly one channel', () => {
    const long = checkDraft(draft({ topic: 't'.repeat(61) }), NOW);
    expect(long.topic).toBe(`${'t'.repeat(57)}...`);
    expect(long.target).toEqual({ kind: 'channel', channelId: 7 });
    expect(() => checkDraft(draft({ topic: 'a\0', to: [] }), NOW)).toThrow('Topic must not contain null bytes');
    expect(() => checkDraft(draft({ to: [] }), NOW)).toThrow('Must specify exactly 1 channel ID for channel messages');
    expect(() => checkDraft(draft({ to: [1, 2] }), NOW)).toThrow('Must specify exactly 1 channel ID for channel messages');
  });
  it('direct and unaddressed drafts keep no topic', () => {
    expect(checkDraft(draft({ type: 'private', to: [3, 4], topic: 'x\0' }), NOW)).toMatchObject({ topic: '', target: { kind: 'direct', userIds: [3, 4] } });
    expect(checkDraft(draft({ type: 'private', to: [] }), NOW).target).toEqual({ kind: 'none' });
    expect(checkDraft(draft({ type: '', to: [1, 2, 3], topic: 'x' }), NOW)).toMatchObject({ topic: '', target: { kind: 'none' } });
  });
});

describe('channel of a draft', () => {
  const groupSettings = { can_add_subscribers_group: 1, can_subscribe_group: 1, can_administer_channel_group: 1, can_remove_subscribers_group: 1 } as ChannelGroupSettings;
  const pub = { inviteOnly: false, isWebPublic: false, isArchived: false, groupSettings };
  const member = { userId: 5, role: Role.MEMBER as Role, groupIds: new Set<number>() };
  const guest = { ...member, role: Role.GUEST as Role };
  it('must exist, be active and readable', () => {
    assertDraftChannelAccessible(pub, member, false);
    expect(() => assertDraftChannelAccessible(null, member, false)).toThrow('Invalid channel ID');
    expect(() => assertDraftChannelAccessible({ ...pub, isArchived: true }, member, true)).toThrow('Invalid channel ID');
    expect(() => assertDraftChannelAccessible({ ...pub, inviteOnly: true }, member, false)).toThrow('Invalid channel ID');
    assertDraftChannelAccessible({ ...pub, inviteOnly: true }, member, true);
    expect(() => assertDraftChannelAccessible(pub, guest, false)).toThrow('Invalid channel ID');
    assertDraftChannelAccessible(pub, guest, true);
  });
});

describe('direct draft recipients', () => {
  const users = new Map([
    [1, { email: 'me@x.com', isActive: true }],
    [2, { email: 'b@x.com', isActive: true }],
    [3, { email: 'c@x.com', isActive: true }],
    [4, { email: 'gone@x.com', isActive: false }],
  ]);
  it('shows the other participant, oneself, or everyone but the owner ascending', () => {
    expect(directDraftRecipients(1, [2], users)).toEqual([2]);
    expect(directDraftRecipients(1, [1, 2], users)).toEqual([2]);
    expect(directDraftRecipients(1, [1], users)).toEqual([1]);
    expect(directDraftRecipients(1, [3, 2, 3], users)).toEqual([2, 3]);
    expect(directDraftRecipients(1, [3, 1, 2], users)).toEqual([2, 3]);
  });
  it('reports unknown users first (smallest id), then deactivated ones', () => {
    expect(() => directDraftRecipients(1, [4, 99, 50], users)).toThrow('Invalid user ID 50');
    expect(() => directDraftRecipients(1, [2, 4], users)).toThrow("'gone@x.com' is no longer using Zulip.");
  });
});

describe('Draft', () => {
  it('stores what was resolved and is replaced as a whole', () => {
    const checked = checkDraft(draft(), NOW);
    const d = Draft.create(5, resolvedDraft(checked)).withId(9);
    expect(d.snapshot()).toEqual({ id: 9, ownerId: 5, type: 'stream', to: [7], topic: 'lunch', content: 'hi', timestamp: 1_700_000_000.123456 });
    d.replaceWith(resolvedDraft(checkDraft(draft({ type: 'private', to: [2], timestamp: 3 }), NOW), [2]));
    expect(d.snapshot()).toEqual({ id: 9, ownerId: 5, type: 'private', to: [2], topic: '', content: 'hi', timestamp: 3 });
    d.replaceWith(resolvedDraft(checkDraft(draft({ type: 'private', to: [], timestamp: 4 }), NOW)));
    expect(d.snapshot()).toMatchObject({ type: '', to: [], timestamp: 4 });
  });
});

describe('saved snippet text', () => {
  it('is stripped, not blank and at most the limit after stripping', () => {
    expect(snippetText('title', '  Hello  ', 60)).toBe('Hello');
    expect(() => snippetText('title', ' \n ', 60)).toThrow('title cannot be blank');
    expect(snippetText('title', ` ${'x'.repeat(60)} `, 60)).toHaveLength(60);
    expect(() => snippetText('content', '😀'.repeat(11), 10)).toThrow('content is too long (limit: 10 characters)');
  });
});
