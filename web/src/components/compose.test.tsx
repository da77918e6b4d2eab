import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { state } from '../test/fixtures';
import { type Call, renderMain } from '../test/render';

type Answer = Parameters<typeof renderMain>[1];
const emptyMessages = (c: Call) => (c.path === '/json/messages' && c.method === 'GET' ? { body: { messages: [], found_oldest: true, found_newest: true, found_anchor: false } } : undefined);

async function setup(answer: Answer = () => undefined) {
  const r = renderMain(state(), (c) => answer!(c) ?? emptyMessages(c));
  act(() => r.session.narrowTo([{ operator: 'channel', operand: '10' }]));
  await waitFor(() => expect(r.store.getState().view.loading).toBe(false));
  return r;
}

describe('compose', () => {
  it('opens from New message with the channel of the narrow; Enter sends with a local echo, Shift+Enter breaks the line', async () => {
    const r = await setup((c) => (c.path === '/json/messages' && c.method === 'POST' ? { body: { id: 500 } } : undefined));
    await userEvent.click(screen.getByRole('button', { name: 'New message' }));
    expect((screen.getByRole('combobox', { name: 'Channel' }) as HTMLSelectElement).value).toBe('10');
    await userEvent.type(screen.getByRole('textbox', { name: 'Topic' }), 'greetings');
    const box = screen.getByRole('textbox', { name: 'Message' });
    await userEvent.type(box, 'Hello{Shift>}{Enter}{/Shift}there');
    expect((box as HTMLTextAreaElement).value).toBe('Hello\nthere');
    await userEvent.type(box, '{Enter}');
    const post = r.calls.find((c) => c.method === 'POST' && c.path === '/json/messages')!;
    expect(Object.fromEntries(post.params)).toMatchObject({ type: 'stream', to: '10', topic: 'greetings', content: 'Hello\nthere', read_by_sender: 'true' });
    expect(post.params.get('local_id')).toMatch(/^\d+\.\d+$/);
    expect((box as HTMLTextAreaElement).value).toBe('');
    const echo = within(screen.getByRole('feed', { name: 'Messages' })).getByRole('article');
    expect(echo.textContent).toContain('Hello\nthere');
    expect(echo.textContent).toContain('Desdemona Owner');
  });

  it("shows the server's refusal next to the box and puts the text back", async () => {
    await setup((c) => (c.path === '/json/messages' && c.method === 'POST' ? { status: 400, body: { result: 'error', msg: 'Topics are required in this organization', code: 'BAD_REQUEST' } } : undefined));
    await userEvent.click(screen.getByRole('button', { name: 'New message' }));
    await userEvent.type(screen.getByRole('textbox', { name: 'Message' }), 'No topic{Enter}');
    expect((await screen.findByRole('alert')).textContent).toBe('Topics are required in this organization');
    await waitFor(() => expect((screen.getByRole('textbox', { name: 'Message' }) as HTMLTextAreaElement).value).toBe('No topic'));
    expect(within(screen.getByRole('feed', { name: 'Messages' })).queryByRole('article')).toBeNull();
  });

  it('sends a direct message to people chosen in To by name', async () => {
    const r = await setup();
    await userEvent.click(screen.getByRole('button', { name: 'New direct message' }));
    const to = screen.getByRole('combobox', { name: 'To' });
    expect(document.activeElement).toBe(to);
    expect(screen.queryByRole('textbox', { name: 'Topic' })).toBeNull();
    await userEvent.type(to, 'Pat');
    expect(within(screen.getByRole('listbox', { name: 'People' })).getByRole('option', { name: /Pat Lee/ })).toBeTruthy();
    await userEvent.type(to, '{Enter}');
    expect(screen.getByRole('button', { name: 'Remove Pat Lee' })).toBeTruthy();
    await userEvent.type(to, 'sam@{Enter}');
    await userEvent.type(screen.getByRole('textbox', { name: 'Message' }), 'A private word{Enter}');
    const post = r.calls.find((c) => c.method === 'POST' && c.path === '/json/messages')!;
    expect(Object.fromEntries(post.params)).toMatchObject({ type: 'direct', to: '[2,3]', content: 'A private word' });
  });

  it('completes @-mentions and :emoji:', async () => {
    await setup();
    await userEvent.click(screen.getByRole('button', { name: 'New message' }));
    const box = screen.getByRole('textbox', { name: 'Message' }) as HTMLTextAreaElement;
    await userEvent.type(box, 'Hi @sa');
    expect(within(screen.getByRole('listbox', { name: 'People' })).getByRole('option', { name: /Sam Rivera/ })).toBeTruthy();
    await userEvent.type(box, '{Enter}');
    expect(box.value).toBe('Hi @**Sam Rivera** ');
    await userEvent.type(box, 'look :octo');
    await userEvent.type(box, '{Tab}');
    expect(box.value).toBe('Hi @**Sam Rivera** look :octopus: ');
  });

  it('puts the caret after a completion made mid-text at once, before the next key', async () => {
    await setup();
    await userEvent.click(screen.getByRole('button', { name: 'New message' }));
    const box = screen.getByRole('textbox', { name: 'Message' }) as HTMLTextAreaElement;
    await userEvent.type(box, 'Hi  there');
    await userEvent.type(box, '@sa', { initialSelectionStart: 3, initialSelectionEnd: 3 });
    await userEvent.keyboard('{Enter}');
    expect(box.value).toBe('Hi @**Sam Rivera**  there');
    expect(box.selectionStart).toBe('Hi @**Sam Rivera** '.length);
    await userEvent.keyboard('and');
    expect(box.value).toBe('Hi @**Sam Rivera** and there');
  });

  it('uploads an attached file and inserts its link', async () => {
    const r = await setup((c) => (c.path === '/json/user_uploads' ? { body: { uri: '/user_uploads/2/ab/dot.png', url: '/user_uploads/2/ab/dot.png', filename: 'dot.png' } } : undefined));
    await userEvent.click(screen.getByRole('button', { name: 'New message' }));
    await userEvent.upload(screen.getByLabelText('Attach files'), new File(['png'], 'dot.png', { type: 'image/png' }));
    await waitFor(() => expect((screen.getByRole('textbox', { name: 'Message' }) as HTMLTextAreaElement).value).toBe('[dot.png](/user_uploads/2/ab/dot.png) '));
    expect(r.calls.some((c) => c.path === '/json/user_uploads' && c.method === 'POST')).toBe(true);
  });

  it('previews through the server', async () => {
    await setup((c) => (c.path === '/json/messages/render' ? { body: { rendered: '<p><strong>bold</strong></p>' } } : undefined));
    await userEvent.click(screen.getByRole('button', { name: 'New message' }));
    await userEvent.type(screen.getByRole('textbox', { name: 'Message' }), '**bold**');
    await userEvent.click(screen.getByRole('button', { name: 'Preview' }));
    expect((await screen.findByText('bold')).tagName).toBe('STRONG');
  });

  it('opens with c and x, and closes with Esc keeping the text', async () => {
    await setup();
    await userEvent.keyboard('c');
    const topic = screen.getByRole('textbox', { name: 'Topic' });
    expect(document.activeElement).toBe(topic);
    await userEvent.type(screen.getByRole('textbox', { name: 'Message' }), 'draft');
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('textbox', { name: 'Message' })).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'New message' }));
    expect((screen.getByRole('textbox', { name: 'Message' }) as HTMLTextAreaElement).value).toBe('draft');
    await userEvent.keyboard('{Escape}');
    (document.activeElement as HTMLElement).blur();
    await userEvent.keyboard('x');
    expect(document.activeElement).toBe(screen.getByRole('combobox', { name: 'To' }));
  });
});
