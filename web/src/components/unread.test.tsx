import { act, screen, waitFor, within } from '@testing-library/react';
import type { ServerEvent } from '../api/types';
import { dmMessage, messageEvent, state, streamMessage } from '../test/fixtures';
import { renderMain } from '../test/render';

/** Unread counts as the left side shows them: link names that carry the count, kept up to date by events. */
const channels = () => within(screen.getByRole('navigation', { name: 'Channels' }));
const dms = () => within(screen.getByRole('navigation', { name: 'Direct messages' }));
const views = () => within(screen.getByRole('navigation', { name: 'Views' }));

function setup() {
  const st = state({
    unread_msgs: {
      count: 4,
      streams: [
        { stream_id: 10, topic: 'greetings', unread_message_ids: [50, 51] },
        { stream_id: 10, topic: 'plans', unread_message_ids: [52] },
      ],
      pms: [{ other_user_id: 2, unread_message_ids: [54] }],
      huddles: [],
      mentions: [54],
    },
  });
  return renderMain(st, (c) => (c.path === '/json/messages' ? { body: { messages: [], found_oldest: true, found_newest: true, found_anchor: false } } : undefined));
}

const send = (store: ReturnType<typeof setup>['store'], ...events: Record<string, unknown>[]) =>
  act(() => store.dispatch({ type: 'events', events: events.map((e, i) => ({ id: i, ...e }) as ServerEvent), now: Date.now() }));

describe('unread counts in the left side', () => {
  it("start from register's unread_msgs: channel links named with the name, then the count", () => {
    setup();
    expect(channels().getByRole('link', { name: 'general 3' })).toBeTruthy();
    expect(channels().getByRole('link', { name: 'sandbox' })).toBeTruthy();
    expect(dms().getByRole('link', { name: 'Pat Lee 1' })).toBeTruthy();
    expect(views().getByRole('link', { name: 'All messages 4' })).toBeTruthy();
    expect(views().getByRole('link', { name: 'Mentions 1' })).toBeTruthy();
    expect(document.title).toBe('(4) All messages - Demo Organization');
  });

  it('go up with new message events, in channels and in new conversations', () => {
    const { store } = setup();
    send(store, messageEvent(streamMessage({ stream_id: 11, display_recipient: 'sandbox' })), messageEvent(dmMessage({ sender_id: 3, sender_full_name: 'Sam Rivera', display_recipient: [{ id: 1, email: 'owner@example.com', full_name: 'Desdemona Owner' }, { id: 3, email: 'sam@example.com', full_name: 'Sam Rivera' }] })));
    expect(channels().getByRole('link', { name: 'sandbox 1' })).toBeTruthy();
    expect(dms().getByRole('link', { name: 'Sam Rivera 1' })).toBeTruthy();
    expect(views().getByRole('link', { name: 'All messages 6' })).toBeTruthy();
  });

  it('go down when messages are read elsewhere, and the name loses its number at zero', () => {
    const { store } = setup();
    send(store, { type: 'update_message_flags', op: 'add', operation: 'add', flag: 'read', messages: [50, 51], all: false });
    expect(channels().getByRole('link', { name: 'general 1' })).toBeTruthy();
    send(store, { type: 'update_message_flags', op: 'add', operation: 'add', flag: 'read', messages: [52, 54], all: false });
    expect(channels().getByRole('link', { name: 'general' })).toBeTruthy();
    expect(dms().getByRole('link', { name: 'Pat Lee' })).toBeTruthy();
    expect(views().getByRole('link', { name: 'All messages' })).toBeTruthy();
    expect(views().getByRole('link', { name: 'Mentions' })).toBeTruthy();
  });

  it('go down when messages are deleted', () => {
    const { store } = setup();
    send(store, { type: 'delete_message', message_ids: [50, 52], message_type: 'stream', stream_id: 10 });
    expect(channels().getByRole('link', { name: 'general 1' })).toBeTruthy();
  });

  it('show the open channel’s topics with theirs', async () => {
    const { session, store } = setup();
    act(() => session.narrowTo([{ operator: 'channel', operand: '10' }]));
    await waitFor(() => expect(store.getState().view.loading).toBe(false));
    const topics = within(screen.getByRole('navigation', { name: 'Topics' }));
    expect(topics.getByRole('link', { name: 'greetings 2' })).toBeTruthy();
    expect(topics.getByRole('link', { name: 'plans 1' })).toBeTruthy();
    expect(location.hash).toBe('#narrow/channel/10-general');
  });
});
