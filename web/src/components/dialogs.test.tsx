import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ServerEvent } from '../api/types';
import { state, streamMessage } from '../test/fixtures';
import { type Call, loaded, renderMain } from '../test/render';

type Answer = (c: Call) => { status?: number; body: Record<string, unknown> } | undefined;
const fail = (msg: string) => ({ status: 400, body: { result: 'error', msg, code: 'BAD_REQUEST' } });
const base: Answer = (c) => {
  if (c.path === '/json/messages' && c.method === 'GET') return { body: { messages: [], found_oldest: true, found_newest: true, found_anchor: false } };
  if (c.path === '/json/streams') return { body: { streams: [{ stream_id: 10, name: 'general', description: 'Everyone', invite_only: false }, { stream_id: 12, name: 'design', description: 'Pixels', invite_only: false }] } };
  return undefined;
};
const setup = (answer: Answer = () => undefined, st = state()) => renderMain(st, (c) => answer(c) ?? base(c));

describe('the channel browser', () => {
  it('lists channels to subscribe to and unsubscribe from', async () => {
    const r = setup();
    await userEvent.click(screen.getByRole('button', { name: 'Browse channels' }));
    const dialog = screen.getByRole('dialog', { name: 'Channels' });
    const design = (await within(dialog).findByText('design')).closest('li')!;
    await userEvent.click(within(design).getByRole('button', { name: 'Subscribe' }));
    const general = within(dialog).getByText('general').closest('li')!;
    await userEvent.click(within(general).getByRole('button', { name: 'Unsubscribe' }));
    const [sub, unsub] = r.calls.filter((c) => c.path === '/json/users/me/subscriptions');
    expect(sub.method).toBe('POST');
    expect(sub.params.get('subscriptions')).toBe('[{"name":"design"}]');
    expect(unsub.method).toBe('DELETE');
    expect(unsub.params.get('subscriptions')).toBe('["general"]');
  });

  it("creates a channel, showing the server's refusal beside the name and keeping what was typed", async () => {
    const r = setup((c) => (c.path === '/json/users/me/subscriptions' && c.method === 'POST' ? fail('Channel name too long (limit: 60 characters).') : undefined));
    await userEvent.click(screen.getByRole('button', { name: 'Browse channels' }));
    const dialog = screen.getByRole('dialog', { name: 'Channels' });
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Channel name' }), 'x'.repeat(70));
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Description' }), 'About x');
    await userEvent.click(within(dialog).getByRole('checkbox', { name: 'Private' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create channel' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe('Channel name too long (limit: 60 characters).');
    expect((within(dialog).getByRole('textbox', { name: 'Channel name' }) as HTMLInputElement).value).toHaveLength(70);
    const post = r.calls.find((c) => c.method === 'POST' && c.path === '/json/users/me/subscriptions')!;
    expect(post.params.get('subscriptions')).toBe(`[{"name":"${'x'.repeat(70)}","description":"About x"}]`);
    expect(post.params.get('invite_only')).toBe('true');
  });

  it('closes on Esc and gives focus back', async () => {
    setup();
    const opener = screen.getByRole('button', { name: 'Browse channels' });
    await userEvent.click(opener);
    expect(screen.getByRole('dialog', { name: 'Channels' })).toBeTruthy();
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('dialog', { name: 'Channels' })).toBeNull();
    expect(document.activeElement).toBe(opener);
  });
});

describe('settings', () => {
  it("saves the full name, and shows a password refusal beside the fields", async () => {
    const r = setup((c) => (c.method === 'PATCH' && c.params.has('old_password') ? fail('Wrong password!') : undefined));
    await userEvent.click(screen.getByRole('button', { name: 'Personal menu' }));
    await userEvent.click(screen.getByRole('menuitem', { name: 'Settings' }));
    const dialog = screen.getByRole('dialog', { name: 'Settings' });
    const name = within(dialog).getByRole('textbox', { name: 'Full name' });
    await userEvent.clear(name);
    await userEvent.type(name, 'Desdemona O.');
    await userEvent.click(within(within(dialog).getByRole('form', { name: 'Profile' })).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(r.calls.find((c) => c.method === 'PATCH')?.params.get('full_name')).toBe('Desdemona O.'));
    const password = within(dialog).getByRole('form', { name: 'Password' });
    await userEvent.type(within(password).getByLabelText('Current password'), 'nope');
    await userEvent.type(within(password).getByLabelText('New password'), 'a-new-long-passphrase');
    await userEvent.click(within(password).getByRole('button', { name: 'Save' }));
    expect((await within(password).findByRole('alert')).textContent).toBe('Wrong password!');
    expect((within(password).getByLabelText('New password') as HTMLInputElement).value).toBe('a-new-long-passphrase');
  });

  it('saves notification settings', async () => {
    const r = setup();
    await userEvent.click(screen.getByRole('button', { name: 'Personal menu' }));
    await userEvent.click(screen.getByRole('menuitem', { name: 'Settings' }));
    const form = within(screen.getByRole('dialog', { name: 'Settings' })).getByRole('form', { name: 'Notifications' });
    await userEvent.click(within(form).getByRole('checkbox', { name: 'Sounds' }));
    await userEvent.click(within(form).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(r.calls.find((c) => c.method === 'PATCH')?.params.get('enable_sounds')).toBe('false'));
  });

  it('lets administrators rename the organization and invite people', async () => {
    const r = setup((c) => (c.path === '/json/invites/multiuse' ? { body: { invite_link: 'http://chat.example/join/abc/' } } : c.path === '/json/invites' ? fail("Some emails did not validate, so we didn't send any invitations.") : undefined));
    await userEvent.click(screen.getByRole('button', { name: 'Personal menu' }));
    await userEvent.click(screen.getByRole('menuitem', { name: 'Settings' }));
    const org = within(screen.getByRole('dialog', { name: 'Settings' })).getByRole('form', { name: 'Organization' });
    const realmName = within(org).getByRole('textbox', { name: 'Organization name' });
    await userEvent.clear(realmName);
    await userEvent.type(realmName, 'Renamed');
    await userEvent.click(within(org).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(r.calls.find((c) => c.path === '/json/realm')?.params.get('name')).toBe('Renamed'));
    await userEvent.keyboard('{Escape}');

    await userEvent.click(screen.getByRole('button', { name: 'Personal menu' }));
    await userEvent.click(screen.getByRole('menuitem', { name: 'Invite people' }));
    const dialog = screen.getByRole('dialog', { name: 'Invite people' });
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Emails' }), 'not-an-email');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send invitations' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe("Some emails did not validate, so we didn't send any invitations.");
    const invite = r.calls.find((c) => c.path === '/json/invites')!;
    expect(invite.params.get('invitee_emails')).toBe('not-an-email');
    expect(invite.params.get('stream_ids')).toBe('[10,11]');
    expect(invite.params.get('invite_as')).toBe('400');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create invite link' }));
    expect(((await within(dialog).findByRole('textbox', { name: 'Invite link' })) as HTMLInputElement).value).toBe('http://chat.example/join/abc/');
  });

  it('does not offer administration to members', async () => {
    setup(undefined, { ...state(), me: { user_id: 1, email: 'owner@example.com', full_name: 'Desdemona Owner', role: 400, avatar_url: null } });
    await userEvent.click(screen.getByRole('button', { name: 'Personal menu' }));
    expect(screen.queryByRole('menuitem', { name: 'Invite people' })).toBeNull();
    expect(screen.getByRole('menuitem', { name: 'Log out' })).toBeTruthy();
  });
});

describe('message actions', () => {
  const mine = () => streamMessage({ sender_id: 1, sender_full_name: 'Desdemona Owner', content: '<p>Mine</p>' });
  const open = async (answer: Answer = () => undefined) => {
    const st = state();
    const r = setup(answer, st);
    const m = mine();
    act(() => r.store.dispatch(loaded(st, [m])));
    await userEvent.click(within(screen.getByRole('article')).getByRole('button', { name: 'Message actions' }));
    return { ...r, m };
  };

  it("moves a topic, showing the server's refusal", async () => {
    const { calls, m } = await open((c) => (c.method === 'PATCH' ? fail('You don\'t have permission to edit this message') : undefined));
    await userEvent.click(screen.getByRole('menuitem', { name: 'Move messages' }));
    const dialog = screen.getByRole('dialog', { name: 'Move messages' });
    const topic = within(dialog).getByRole('textbox', { name: 'New topic name' });
    await userEvent.clear(topic);
    await userEvent.type(topic, 'elsewhere');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Move' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe("You don't have permission to edit this message");
    const patch = calls.find((c) => c.method === 'PATCH')!;
    expect(patch.path).toBe(`/json/messages/${m.id}`);
    expect(patch.params.get('topic')).toBe('elsewhere');
    expect(patch.params.get('propagate_mode')).toBe('change_all');
  });

  it('deletes after confirmation', async () => {
    const { calls, m } = await open();
    await userEvent.click(screen.getByRole('menuitem', { name: 'Delete' }));
    await userEvent.click(within(screen.getByRole('dialog', { name: 'Delete message?' })).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'DELETE' && c.path === `/json/messages/${m.id}`)).toBe(true));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('stars from the menu', async () => {
    const { calls, m } = await open();
    await userEvent.click(screen.getByRole('menuitem', { name: 'Star' }));
    const star = calls.find((c) => c.path === '/json/messages/flags')!;
    expect(Object.fromEntries(star.params)).toEqual({ messages: `[${m.id}]`, op: 'add', flag: 'starred' });
  });
});

describe('typing notifications', () => {
  it('shows "Pat Lee is typing…" in the conversation, and stops', async () => {
    const r = setup();
    act(() => r.session.narrowTo([{ operator: 'dm', operand: '2' }]));
    await waitFor(() => expect(r.store.getState().view.loading).toBe(false));
    const typing = (op: string) =>
      act(() =>
        r.store.dispatch({
          type: 'events',
          events: [{ id: 1, type: 'typing', op, message_type: 'direct', sender: { user_id: 2, email: 'pat@example.com' }, recipients: [{ user_id: 1 }, { user_id: 2 }] } as ServerEvent],
          now: Date.now(),
        }),
      );
    typing('start');
    expect(screen.getByText('Pat Lee is typing…')).toBeTruthy();
    typing('stop');
    expect(screen.queryByText('Pat Lee is typing…')).toBeNull();
  });

  it('tells the server while I type', async () => {
    const r = setup();
    act(() => r.session.narrowTo([{ operator: 'dm', operand: '2' }]));
    await waitFor(() => expect(r.store.getState().view.loading).toBe(false));
    await userEvent.click(screen.getByRole('button', { name: 'New message' }));
    expect(screen.getByRole('button', { name: 'Remove Pat Lee' })).toBeTruthy();
    await userEvent.type(screen.getByRole('textbox', { name: 'Message' }), 'hi');
    const start = r.calls.find((c) => c.path === '/json/typing')!;
    expect(Object.fromEntries(start.params)).toEqual({ type: 'direct', to: '[2]', op: 'start' });
  });
});
