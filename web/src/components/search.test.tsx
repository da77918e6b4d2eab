import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { state } from '../test/fixtures';
import { type Call, renderMain } from '../test/render';

const emptyMessages = (c: Call) => (c.path === '/json/messages' && c.method === 'GET' ? { body: { messages: [], found_oldest: true, found_newest: true, found_anchor: false } } : undefined);

describe('the search box', () => {
  beforeEach(() => history.replaceState(null, '', '#feed'));

  it('turns narrow syntax into a narrow: the hash, the request and the title', async () => {
    const r = renderMain(state(), emptyMessages);
    const search = screen.getByRole('searchbox', { name: 'Search' });
    await userEvent.type(search, 'stream:sandbox topic:"two words" zanzibar{Enter}');
    expect(location.hash).toBe('#narrow/channel/11-sandbox/topic/two.20words/search/zanzibar');
    await waitFor(() => expect(r.calls.some((c) => c.path === '/json/messages')).toBe(true));
    const get = r.calls.find((c) => c.path === '/json/messages')!;
    expect(JSON.parse(get.params.get('narrow')!)).toEqual([
      { operator: 'channel', operand: 11 },
      { operator: 'topic', operand: 'two words' },
      { operator: 'search', operand: 'zanzibar' },
    ]);
    expect(get.params.get('anchor')).toBe('newest');
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Search results');
    expect((search as HTMLInputElement).value).toBe('channel:sandbox topic:two+words zanzibar');
  });

  it('opens a DM narrow from dm: and shows it in the title', async () => {
    const r = renderMain(state(), emptyMessages);
    await userEvent.type(screen.getByRole('searchbox', { name: 'Search' }), 'dm:pat@example.com{Enter}');
    expect(location.hash).toBe('#narrow/dm/2-Pat-Lee');
    await waitFor(() => expect(r.store.getState().view.loading).toBe(false));
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Direct messages with Pat Lee');
    expect(JSON.parse(r.calls.find((c) => c.path === '/json/messages')!.params.get('narrow')!)).toEqual([{ operator: 'dm', operand: [2] }]);
  });

  it('follows the hash (back button, links) and opens at the first unread', async () => {
    const r = renderMain(state(), emptyMessages);
    act(() => {
      history.pushState(null, '', '#narrow/is/starred');
      window.dispatchEvent(new PopStateEvent('popstate'));
    });
    await waitFor(() => expect(r.store.getState().view.key).toBe(JSON.stringify([['is', 'starred']])));
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Starred messages');
    await waitFor(() => expect(r.calls.find((c) => c.path === '/json/messages')?.params.get('anchor')).toBe('first_unread'));
  });
});
