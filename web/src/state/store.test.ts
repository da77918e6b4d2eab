import type { Message, ServerEvent } from '../api/types';
import { dmMessage, messageEvent, register, state, streamMessage } from '../test/fixtures';
import { type AppState, MAX_VIEW_MESSAGES, reduce, TYPING_EXPIRY_MS } from './store';
import { unreadCounts } from './unread';

const NOW = 1_700_000_000_000;
const events = (s: AppState, ...evs: Record<string, unknown>[]): AppState =>
  reduce(s, { type: 'events', events: evs.map((e, i) => ({ id: i, ...e }) as ServerEvent), now: NOW });

/** A state with the view `narrow` loaded with these messages (all found). */
function loadedWith(messages: Message[], narrow: AppState['view']['narrow'] = [], base = state({}, narrow)): AppState {
  return reduce(base, {
    type: 'loaded',
    generation: base.view.generation,
    direction: 'initial',
    response: { messages, found_anchor: true, found_oldest: true, found_newest: true, anchor: messages[0]?.id },
  });
}

const counts = (s: AppState) => unreadCounts(s.unread);

describe('unread counts', () => {
  const withUnreads = () =>
    state({
      unread_msgs: {
        count: 6,
        streams: [
          { stream_id: 10, topic: 'greetings', unread_message_ids: [50, 51] },
          { stream_id: 10, topic: 'Plans', unread_message_ids: [52] },
          { stream_id: 11, topic: 'x', unread_message_ids: [53] },
        ],
        pms: [{ other_user_id: 2, unread_message_ids: [54] }],
        huddles: [{ user_ids_string: '1,2,3', unread_message_ids: [55] }],
        mentions: [51, 54],
      },
    });

  it("start from register's unread_msgs: per channel, topic, conversation, and mentions", () => {
    const c = counts(withUnreads());
    expect(c.total).toBe(6);
    expect(c.byStream.get(10)).toBe(3);
    expect(c.byStream.get(11)).toBe(1);
    expect(c.byTopic.get('10\u0000plans')).toBe(1);
    expect(c.byDm.get('2')).toBe(1);
    expect(c.byDm.get('2,3')).toBe(1);
    expect(c.mentions).toBe(2);
  });

  it('leave muted channels out of the total', () => {
    expect(unreadCounts(withUnreads().unread, new Set([10])).total).toBe(3);
  });

  it('grow with new unread messages, not with ones already read (e.g. my own)', () => {
    let s = events(withUnreads(), messageEvent(streamMessage({ stream_id: 11, subject: 'new' })));
    s = events(s, messageEvent(streamMessage({ stream_id: 11, sender_id: 1, flags: ['read'] })));
    s = events(s, messageEvent(dmMessage({ flags: ['mentioned'] })));
    const c = counts(s);
    expect(c.byStream.get(11)).toBe(2);
    expect(c.byDm.get('2')).toBe(2);
    expect(c.mentions).toBe(3);
    expect(c.total).toBe(8);
  });

  it('drop messages read elsewhere (update_message_flags add read)', () => {
    const s = events(withUnreads(), { type: 'update_message_flags', op: 'add', flag: 'read', messages: [50, 54], all: false });
    const c = counts(s);
    expect(c.byStream.get(10)).toBe(2);
    expect(c.byDm.get('2')).toBeUndefined();
    expect(c.total).toBe(4);
  });

  it('clear everything on "all" read', () => {
    const s = events(withUnreads(), { type: 'update_message_flags', op: 'add', flag: 'read', messages: [], all: true });
    expect(counts(s).total).toBe(0);
  });

  it('come back when marked unread (message_details says where)', () => {
    const s = events(state(), {
      type: 'update_message_flags',
      op: 'remove',
      flag: 'read',
      messages: [70, 71],
      all: false,
      message_details: { '70': { type: 'stream', stream_id: 11, topic: 'x', mentioned: true }, '71': { type: 'private', user_ids: [3] } },
    });
    const c = counts(s);
    expect(c.byStream.get(11)).toBe(1);
    expect(c.byDm.get('3')).toBe(1);
    expect(c.mentions).toBe(1);
  });

  it('drop deleted messages', () => {
    expect(counts(events(withUnreads(), { type: 'delete_message', message_ids: [50, 55], message_type: 'stream' })).total).toBe(4);
    expect(counts(events(withUnreads(), { type: 'delete_message', message_id: 53, message_type: 'stream' })).byStream.get(11)).toBeUndefined();
  });

  it('follow moved messages to their new channel and topic', () => {
    const s = events(withUnreads(), { type: 'update_message', message_id: 50, message_ids: [50, 51], stream_id: 10, orig_subject: 'greetings', subject: 'moved', new_stream_id: 11, propagate_mode: 'change_all' });
    const c = counts(s);
    expect(c.byStream.get(10)).toBe(1);
    expect(c.byStream.get(11)).toBe(3);
    expect(c.byTopic.get('11\u0000moved')).toBe(2);
  });

  it('drop what the page marks read', () => {
    expect(counts(reduce(withUnreads(), { type: 'markRead', ids: [50, 51, 52] })).byStream.get(10)).toBeUndefined();
  });
});

describe('message events', () => {
  it('append a new message to the open view when it belongs there', () => {
    const first = streamMessage();
    let s = loadedWith([first], [{ operator: 'channel', operand: '10' }]);
    const other = streamMessage({ stream_id: 11, display_recipient: 'sandbox' });
    const here = streamMessage({ subject: 'another topic' });
    s = events(s, messageEvent(other), messageEvent(here));
    expect(s.view.ids).toEqual([first.id, here.id]);
    expect(s.messages.get(here.id)?.content).toBe('<p>Hello</p>');
    expect(s.messages.has(other.id)).toBe(false);
  });

  it('does not append when the window does not reach the newest message', () => {
    const base = state();
    const s = reduce(base, {
      type: 'loaded',
      generation: base.view.generation,
      direction: 'initial',
      response: { messages: [streamMessage()], found_anchor: true, found_oldest: true, found_newest: false },
    });
    expect(events(s, messageEvent(streamMessage())).view.ids).toHaveLength(1);
  });

  it('keeps messages that come while the view loads, and adds them when it is loaded', () => {
    let s = state();
    const early = streamMessage();
    s = events(s, messageEvent(early));
    s = reduce(s, { type: 'loaded', generation: s.view.generation, direction: 'initial', response: { messages: [], found_anchor: false, found_oldest: true, found_newest: true } });
    expect(s.view.ids).toEqual([early.id]);
  });

  it('updates topics and DM conversations', () => {
    const dm = dmMessage({ flags: ['read'] });
    const s = events(state(), messageEvent(streamMessage({ subject: 'fresh' })), messageEvent(dm));
    expect(s.topics.get(10)?.[0].name).toBe('fresh');
    expect(s.dms.get('2')).toBe(dm.id);
  });

  it('replace the local echo with the same local_message_id', () => {
    let s = loadedWith([]);
    const echo = streamMessage({ id: 300.001, local_id: '300.001', raw: 'typed', sender_id: 1, flags: ['read'] });
    s = reduce(s, { type: 'localEcho', message: echo });
    expect(s.view.ids).toEqual([300.001]);
    const real = streamMessage({ id: 301, sender_id: 1, flags: ['read'] });
    s = events(s, messageEvent(real, { local_message_id: '300.001' }));
    expect(s.view.ids).toEqual([301]);
    expect(s.messages.has(300.001)).toBe(false);
  });

  it('replace an echo whose send answered with the id of the message that came', () => {
    let s = loadedWith([]);
    s = reduce(s, { type: 'localEcho', message: streamMessage({ id: 300.002, local_id: '300.002', sender_id: 1 }) });
    s = reduce(s, { type: 'echoSent', localId: '300.002', id: 302 });
    s = events(s, messageEvent(streamMessage({ id: 302, sender_id: 1, flags: ['read'] })));
    expect(s.view.ids).toEqual([302]);
  });

  it('remove a failed echo', () => {
    let s = loadedWith([]);
    s = reduce(s, { type: 'localEcho', message: streamMessage({ id: 300.003, local_id: '300.003', sender_id: 1 }) });
    s = reduce(s, { type: 'echoRemoved', localId: '300.003' });
    expect(s.view.ids).toEqual([]);
  });
});

describe('update_message', () => {
  it('replaces the content of an edited message and marks it edited', () => {
    const m = streamMessage();
    const s = events(loadedWith([m]), { type: 'update_message', message_id: m.id, message_ids: [m.id], rendered_content: '<p>Edited</p>', content: 'Edited', edit_timestamp: 1_700_000_100 });
    expect(s.messages.get(m.id)?.content).toBe('<p>Edited</p>');
    expect(s.messages.get(m.id)?.last_edit_timestamp).toBe(1_700_000_100);
  });

  it('moves messages out of a topic view, and follows a whole topic that moved', () => {
    const a = streamMessage({ subject: 'old' });
    const b = streamMessage({ subject: 'old' });
    const narrow = [
      { operator: 'channel', operand: '10' },
      { operator: 'topic', operand: 'old' },
    ];
    let s = loadedWith([a, b], narrow);
    s = events(s, { type: 'update_message', message_id: a.id, message_ids: [a.id], stream_id: 10, orig_subject: 'old', subject: 'new', propagate_mode: 'change_one', edit_timestamp: 5 });
    expect(s.view.ids).toEqual([b.id]);
    expect(s.view.movedTo).toBeNull();
    s = events(s, { type: 'update_message', message_id: b.id, message_ids: [b.id], stream_id: 10, orig_subject: 'old', subject: 'new', propagate_mode: 'change_all', edit_timestamp: 6 });
    expect(s.view.movedTo).toEqual([
      { operator: 'channel', operand: '10' },
      { operator: 'topic', operand: 'new' },
    ]);
  });

  it('keeps moved messages in a channel view, with their new topic', () => {
    const a = streamMessage({ subject: 'old' });
    const s = events(loadedWith([a], [{ operator: 'channel', operand: '10' }]), {
      type: 'update_message',
      message_id: a.id,
      message_ids: [a.id],
      stream_id: 10,
      orig_subject: 'old',
      subject: 'renamed',
      propagate_mode: 'change_all',
      edit_timestamp: 7,
    });
    expect(s.view.ids).toEqual([a.id]);
    expect(s.messages.get(a.id)?.subject).toBe('renamed');
    expect(s.messages.get(a.id)?.last_moved_timestamp).toBe(7);
  });

  it('moves to another channel', () => {
    const a = streamMessage();
    const s = events(loadedWith([a]), { type: 'update_message', message_id: a.id, message_ids: [a.id], stream_id: 10, orig_subject: 'greetings', new_stream_id: 11, propagate_mode: 'change_one' });
    expect(s.messages.get(a.id)).toMatchObject({ stream_id: 11, display_recipient: 'sandbox', subject: 'greetings' });
  });
});

describe('other events', () => {
  it('delete_message removes messages from the view', () => {
    const a = streamMessage();
    const b = streamMessage();
    const s = events(loadedWith([a, b]), { type: 'delete_message', message_ids: [a.id], message_type: 'stream', stream_id: 10, topic: 'greetings' });
    expect(s.view.ids).toEqual([b.id]);
    expect(s.messages.has(a.id)).toBe(false);
  });

  it('reaction add and remove', () => {
    const a = streamMessage();
    const reaction = { type: 'reaction', message_id: a.id, emoji_name: 'octopus', emoji_code: '1f419', reaction_type: 'unicode_emoji' };
    let s = events(loadedWith([a]), { ...reaction, op: 'add', user_id: 2 }, { ...reaction, op: 'add', user_id: 3 }, { ...reaction, op: 'add', user_id: 3 });
    expect(s.messages.get(a.id)?.reactions.map((r) => r.user_id)).toEqual([2, 3]);
    s = events(s, { ...reaction, op: 'remove', user_id: 2 });
    expect(s.messages.get(a.id)?.reactions).toEqual([{ emoji_name: 'octopus', emoji_code: '1f419', reaction_type: 'unicode_emoji', user_id: 3 }]);
  });

  it('starred flags', () => {
    const a = streamMessage();
    let s = events(loadedWith([a]), { type: 'update_message_flags', op: 'add', flag: 'starred', messages: [a.id], all: false });
    expect(s.starred.has(a.id)).toBe(true);
    expect(s.messages.get(a.id)?.flags).toContain('starred');
    s = events(s, { type: 'update_message_flags', op: 'remove', flag: 'starred', messages: [a.id], all: false });
    expect(s.starred.has(a.id)).toBe(false);
    expect(s.messages.get(a.id)?.flags).not.toContain('starred');
  });

  it('read flags on messages in the view', () => {
    const a = streamMessage();
    const s = events(loadedWith([a]), { type: 'update_message_flags', op: 'add', flag: 'read', messages: [a.id], all: false });
    expect(s.messages.get(a.id)?.flags).toContain('read');
  });

  it('subscription add, update and remove', () => {
    let s = events(state(), { type: 'subscription', op: 'add', subscriptions: [{ stream_id: 12, name: 'design', description: '', invite_only: true, color: '#fff', is_muted: false, pin_to_top: false }] });
    expect(s.subscriptions.get(12)?.name).toBe('design');
    expect(s.streams.get(12)?.invite_only).toBe(true);
    s = events(s, { type: 'subscription', op: 'update', stream_id: 12, property: 'is_muted', value: true });
    expect(s.subscriptions.get(12)?.is_muted).toBe(true);
    s = events(s, { type: 'subscription', op: 'remove', subscriptions: [{ stream_id: 12, name: 'design' }] });
    expect(s.subscriptions.has(12)).toBe(false);
  });

  it('stream renames', () => {
    const s = events(state(), { type: 'stream', op: 'update', stream_id: 10, name: 'general', property: 'name', value: 'lobby' });
    expect(s.subscriptions.get(10)?.name).toBe('lobby');
  });

  it('typing start, stop and expiry', () => {
    const start = { type: 'typing', op: 'start', message_type: 'direct', sender: { user_id: 2, email: 'pat@example.com' }, recipients: [{ user_id: 1 }, { user_id: 2 }] };
    let s = events(state(), start);
    expect(s.typing).toEqual([{ senderId: 2, key: 'dm:2', expires: NOW + TYPING_EXPIRY_MS }]);
    s = events(s, { ...start, op: 'stop' });
    expect(s.typing).toEqual([]);
    s = events(s, { type: 'typing', op: 'start', message_type: 'stream', sender: { user_id: 3 }, stream_id: 10, topic: 'Greetings' });
    expect(s.typing[0].key).toBe('stream:10\u0000greetings');
    expect(reduce(s, { type: 'typingExpire', now: NOW + TYPING_EXPIRY_MS + 1 }).typing).toEqual([]);
  });

  it('a message from someone typing ends their typing', () => {
    let s = events(state(), { type: 'typing', op: 'start', message_type: 'direct', sender: { user_id: 2 }, recipients: [{ user_id: 1 }, { user_id: 2 }] });
    s = events(s, messageEvent(dmMessage()));
    expect(s.typing).toEqual([]);
  });

  it('presence in both forms', () => {
    let s = events(state(), { type: 'presence', presences: { '2': { active_timestamp: 100, idle_timestamp: 100 } } });
    expect(s.presence.get(2)).toEqual({ active_timestamp: 100, idle_timestamp: 100 });
    s = events(s, { type: 'presence', user_id: 3, server_timestamp: 200, presence: { website: { status: 'active', timestamp: 200 } } });
    expect(s.presence.get(3)?.active_timestamp).toBe(200);
  });

  it('realm and user updates', () => {
    let s = events(state(), { type: 'realm', op: 'update', property: 'name', value: 'Renamed Org' });
    expect(s.realmName).toBe('Renamed Org');
    s = events(s, { type: 'realm_user', op: 'update', person: { user_id: 1, full_name: 'Desdemona O.' } });
    expect(s.me.full_name).toBe('Desdemona O.');
    s = events(s, { type: 'realm_user', op: 'add', person: { user_id: 9, full_name: 'New Person', email: 'new@example.com', role: 400, is_bot: false, avatar_url: null } });
    expect(s.users.get(9)?.full_name).toBe('New Person');
    s = events(s, { type: 'user_settings', op: 'update', property: 'enable_sounds', value: false });
    expect(s.userSettings.enable_sounds).toBe(false);
  });

  it('ignores unknown events', () => {
    const s = state();
    expect(events(s, { type: 'something_new' })).toBe(s);
  });
});

describe('the window of the view', () => {
  const many = (n: number, from: number) => Array.from({ length: n }, (_, i) => streamMessage({ id: from + i }));

  it(`keeps at most ${MAX_VIEW_MESSAGES} messages, dropping from the far end`, () => {
    let s = state();
    s = reduce(s, { type: 'loaded', generation: s.view.generation, direction: 'initial', response: { messages: many(300, 1000), found_anchor: true, found_oldest: false, found_newest: true } });
    s = reduce(s, { type: 'loaded', generation: s.view.generation, direction: 'older', response: { messages: many(200, 800), found_anchor: false, found_oldest: false, found_newest: false } });
    expect(s.view.ids).toHaveLength(MAX_VIEW_MESSAGES);
    expect(s.view.ids[0]).toBe(800);
    expect(s.view.foundNewest).toBe(false);
    expect(s.messages.size).toBe(MAX_VIEW_MESSAGES);
    s = reduce(s, { type: 'loaded', generation: s.view.generation, direction: 'newer', response: { messages: many(300, 1200), found_anchor: false, found_oldest: false, found_newest: true } });
    expect(s.view.ids).toHaveLength(MAX_VIEW_MESSAGES);
    expect(s.view.ids.at(-1)).toBe(1499);
    expect(s.view.foundOldest).toBe(false);
    expect(s.view.foundNewest).toBe(true);
  });

  it('drops answers for a narrow no longer open', () => {
    let s = state();
    const gen = s.view.generation;
    s = reduce(s, { type: 'narrow', narrow: [{ operator: 'is', operand: 'starred' }] });
    const after = reduce(s, { type: 'loaded', generation: gen, direction: 'initial', response: { messages: [streamMessage()], found_anchor: true, found_oldest: true, found_newest: true } });
    expect(after).toBe(s);
    expect(s.view.loading).toBe(true);
  });

  it('opens at the first unread message', () => {
    const ms = many(5, 2000);
    const base = state();
    const s = reduce(base, { type: 'loaded', generation: base.view.generation, direction: 'initial', response: { messages: ms, found_anchor: true, found_oldest: true, found_newest: true, anchor: 2003 } });
    expect(s.view.anchor).toBe(2003);
  });

  it('a new register keeps the narrow and starts a new load', () => {
    const narrow = [{ operator: 'channel', operand: '10' }];
    const s = loadedWith([streamMessage()], narrow);
    const again = reduce(s, { type: 'register', state: register({ queue_id: 'q2' }), me: s.me, realmName: 'x' });
    expect(again.view.narrow).toEqual(narrow);
    expect(again.view.loading).toBe(true);
    expect(again.view.generation).toBe(s.view.generation + 1);
    expect(again.messages.size).toBe(0);
  });
});
