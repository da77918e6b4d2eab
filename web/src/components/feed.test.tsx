import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ServerEvent } from '../api/types';
import { messageEvent, state, streamMessage } from '../test/fixtures';
import { loaded, renderMain } from '../test/render';

const feed = () => screen.getByRole('feed', { name: 'Messages' });
const article = (text: string) => within(feed()).getAllByRole('article').find((a) => a.textContent?.includes(text))!;

function setup(messages = [streamMessage({ content: '<p>First message</p>' })]) {
  const st = state();
  const r = renderMain(st, (c) => {
    if (c.path === '/json/messages' && c.method === 'GET') return { body: { messages: [], found_oldest: true, found_newest: true, found_anchor: false } };
    if (c.path.startsWith('/json/messages/') && c.method === 'GET') return { body: { raw_content: 'First message', message: { content: 'First message' } } };
    return undefined;
  });
  act(() => r.store.dispatch(loaded(st, messages)));
  return r;
}

const send = (r: ReturnType<typeof setup>, ...events: Record<string, unknown>[]) =>
  act(() => r.store.dispatch({ type: 'events', events: events.map((e, i) => ({ id: i, ...e }) as ServerEvent), now: Date.now() }));

describe('the feed', () => {
  it('shows each message as an article with its sender, channel › topic header and text', () => {
    setup();
    const a = article('First message');
    expect(a.textContent).toContain('Pat Lee');
    expect(within(a).getByRole('link', { name: '#general' }).getAttribute('href')).toBe('#narrow/channel/10-general');
    expect(within(a).getByRole('link', { name: 'greetings' }).getAttribute('href')).toBe('#narrow/channel/10-general/topic/greetings');
  });

  it('applies a new message event', () => {
    const r = setup();
    send(r, messageEvent(streamMessage({ sender_id: 3, sender_full_name: 'Sam Rivera', content: '<p>Live one</p>' })));
    expect(article('Live one').textContent).toContain('Sam Rivera');
    expect(within(feed()).getAllByRole('article')).toHaveLength(2);
  });

  it('applies an edit (update_message with content) and marks it edited', () => {
    const m = streamMessage({ content: '<p>Before</p>' });
    const r = setup([m]);
    send(r, { type: 'update_message', message_id: m.id, message_ids: [m.id], rendered_content: '<p>After</p>', content: 'After', edit_timestamp: 1_700_000_500 });
    expect(article('After').textContent).toContain('(edited)');
    expect(within(feed()).queryByText('Before')).toBeNull();
  });

  it('applies a topic move', () => {
    const m = streamMessage({ content: '<p>Moving</p>' });
    const r = setup([m]);
    send(r, { type: 'update_message', message_id: m.id, message_ids: [m.id], stream_id: 10, orig_subject: 'greetings', subject: 'elsewhere', propagate_mode: 'change_all', edit_timestamp: 5 });
    expect(within(article('Moving')).getByRole('link', { name: 'elsewhere' })).toBeTruthy();
    expect(article('Moving').textContent).toContain('(moved)');
  });

  it('applies a deletion', () => {
    const m = streamMessage({ content: '<p>Doomed</p>' });
    const r = setup([m, streamMessage({ content: '<p>Stays</p>' })]);
    send(r, { type: 'delete_message', message_ids: [m.id], message_type: 'stream', stream_id: 10, topic: 'greetings' });
    expect(within(feed()).queryByText('Doomed')).toBeNull();
    expect(article('Stays')).toBeTruthy();
  });

  it('applies reactions, with buttons named by emoji and count; a click toggles mine', async () => {
    const m = streamMessage({ content: '<p>React</p>' });
    const r = setup([m]);
    const reaction = { type: 'reaction', message_id: m.id, emoji_name: 'octopus', emoji_code: '1f419', reaction_type: 'unicode_emoji' };
    send(r, { ...reaction, op: 'add', user_id: 2 }, { ...reaction, op: 'add', user_id: 3 });
    const button = within(article('React')).getByRole('button', { name: 'octopus 2' });
    expect(button.getAttribute('aria-pressed')).toBe('false');
    await userEvent.click(button);
    const call = r.calls.find((c) => c.path === `/json/messages/${m.id}/reactions`)!;
    expect(call.method).toBe('POST');
    expect(call.params.get('emoji_name')).toBe('octopus');
    send(r, { ...reaction, op: 'add', user_id: 1 });
    expect(within(article('React')).getByRole('button', { name: 'octopus 3' }).getAttribute('aria-pressed')).toBe('true');
    send(r, { ...reaction, op: 'remove', user_id: 2 }, { ...reaction, op: 'remove', user_id: 3 }, { ...reaction, op: 'remove', user_id: 1 });
    expect(within(article('React')).queryByRole('button', { name: /octopus/ })).toBeNull();
  });

  it('applies star flags', () => {
    const m = streamMessage({ content: '<p>Shiny</p>' });
    const r = setup([m]);
    send(r, { type: 'update_message_flags', op: 'add', flag: 'starred', messages: [m.id], all: false });
    expect(within(article('Shiny')).getByRole('button', { name: 'Star' }).getAttribute('aria-pressed')).toBe('true');
  });

  it('adds a reaction from the emoji picker: Enter picks the first match', async () => {
    const m = streamMessage({ content: '<p>Pick</p>' });
    const r = setup([m]);
    await userEvent.click(within(article('Pick')).getByRole('button', { name: 'Add reaction' }));
    const search = screen.getByRole('searchbox', { name: 'Search emoji' });
    await userEvent.type(search, 'octo{Enter}');
    const call = r.calls.find((c) => c.path === `/json/messages/${m.id}/reactions`)!;
    expect(call.params.get('emoji_name')).toBe('octopus');
    expect(call.params.get('emoji_code')).toBe('1f419');
    expect(screen.queryByRole('searchbox', { name: 'Search emoji' })).toBeNull();
  });

  it('edits my own message from the Message actions menu', async () => {
    const m = streamMessage({ sender_id: 1, sender_full_name: 'Desdemona Owner', content: '<p>First message</p>' });
    const r = setup([m]);
    await userEvent.click(within(article('First message')).getByRole('button', { name: 'Message actions' }));
    await userEvent.click(screen.getByRole('menuitem', { name: 'Edit' }));
    const box = await screen.findByRole('textbox', { name: 'Edit message' });
    await waitFor(() => expect((box as HTMLTextAreaElement).value).toBe('First message'));
    await userEvent.clear(box);
    await userEvent.type(box, 'Changed');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    const patch = r.calls.find((c) => c.method === 'PATCH')!;
    expect(patch.path).toBe(`/json/messages/${m.id}`);
    expect(patch.params.get('content')).toBe('Changed');
    await waitFor(() => expect(screen.queryByRole('textbox', { name: 'Edit message' })).toBeNull());
  });

  it("shows the server's refusal of an edit, keeping the text", async () => {
    const m = streamMessage({ sender_id: 1, content: '<p>Old</p>' });
    const st = state();
    const r = renderMain(st, (c) => {
      if (c.method === 'GET') return { body: { raw_content: 'Old', message: { content: 'Old' } } };
      if (c.method === 'PATCH') return { status: 400, body: { result: 'error', msg: 'The time limit for editing this message has passed', code: 'BAD_REQUEST' } };
      return undefined;
    });
    act(() => r.store.dispatch(loaded(st, [m])));
    await userEvent.click(within(article('Old')).getByRole('button', { name: 'Message actions' }));
    await userEvent.click(screen.getByRole('menuitem', { name: 'Edit' }));
    const box = await screen.findByRole('textbox', { name: 'Edit message' });
    await waitFor(() => expect((box as HTMLTextAreaElement).value).toBe('Old'));
    await userEvent.type(box, ' and new');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect((await screen.findByRole('alert')).textContent).toBe('The time limit for editing this message has passed');
    expect((screen.getByRole('textbox', { name: 'Edit message' }) as HTMLTextAreaElement).value).toBe('Old and new');
  });
});

describe('what the server sends is never markup', () => {
  it('removes javascript: links from message HTML', () => {
    setup([streamMessage({ content: '<p><a href="javascript:window.pwned=3">click</a> <script>window.pwned=1</script>text</p>' })]);
    const a = article('click');
    expect(a.querySelector('script')).toBeNull();
    for (const link of within(a).queryAllByRole('link')) expect(link.getAttribute('href') ?? '').not.toMatch(/javascript:/i);
  });

  it('shows a topic, a sender name and a channel name holding <script> as text', () => {
    const st = state({ subscriptions: [{ stream_id: 10, name: '<b>chan</b>', description: '', invite_only: false, color: '#fff', is_muted: false, pin_to_top: false }] });
    const r = renderMain(st);
    act(() =>
      r.store.dispatch(
        loaded(st, [streamMessage({ subject: '<script>window.pwned=1</script>', sender_id: 99, sender_full_name: '<img src=x onerror="window.pwned=2">', content: '<p>body</p>' })]),
      ),
    );
    const a = article('body');
    expect(a.querySelector('script, img[onerror], b')).toBeNull();
    expect(a.textContent).toContain('<script>window.pwned=1</script>');
    expect(a.textContent).toContain('<img src=x onerror="window.pwned=2">');
    expect(within(screen.getByRole('navigation', { name: 'Channels' })).getByRole('link', { name: /^<b>chan<\/b>/ })).toBeTruthy();
  });

  it('opens a spoiler with its header, by click or keyboard', async () => {
    setup([streamMessage({ content: '<div class="spoiler-block"><div class="spoiler-header"><p>Plot</p></div><div class="spoiler-content" aria-hidden="true"><p>Twist</p></div></div>' })]);
    const header = within(article('Plot')).getByRole('button', { name: 'Plot' });
    await userEvent.click(header);
    expect(header.getAttribute('aria-expanded')).toBe('true');
    header.focus();
    await userEvent.keyboard('{Enter}');
    expect(header.getAttribute('aria-expanded')).toBe('false');
  });

  it('falls back to initials when an avatar does not load', () => {
    setup([streamMessage({ avatar_url: 'https://secure.gravatar.com/avatar/abc', content: '<p>Avatar</p>' })]);
    const img = article('Avatar').querySelector('img.avatar')!;
    fireEvent.error(img);
    expect(article('Avatar').querySelector('img.avatar')).toBeNull();
    expect(article('Avatar').querySelector('.avatar-initials')?.getAttribute('data-initials')).toBe('PL');
  });
});
