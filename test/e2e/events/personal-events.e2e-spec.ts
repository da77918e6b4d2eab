import { EventClient } from '../../support/events.js';
import { type Account, expectSuccess, TestApp } from '../../support/test-app.js';

// drafts, saved_snippets (to the owner) and user_status (to every active user) — spec 30 §7.8, §7.9, §7.11.
let t: TestApp;
let member: Account;
let other: Account;
let subOwner: Account;
let bot: Account;
const NOW = 1_750_000_000;

beforeAll(async () => {
  t = await TestApp.start();
  t.clock.current = new Date(NOW * 1000 + 250);
  member = await t.createUser({ fullName: 'Member' });
  other = await t.createUser({ fullName: 'Other' });
  bot = await t.createBot(member, 'status');
  subOwner = await t.createOrganization('sub');
});
afterAll(() => t.close());

/** One queue per account; `drain` first so that each test starts from an empty queue. */
async function clients(...accounts: Account[]): Promise<EventClient[]> {
  const out: EventClient[] = [];
  for (const a of accounts) out.push(await EventClient.register(t, a));
  return out;
}

describe('drafts events', () => {
  it('add (one event for a bulk create), update and remove, to all of the owner’s queues only', async () => {
    const [mine, mine2, others, sub] = await clients(member, member, other, subOwner);
    const res = await t.post('drafts', {
      as: member,
      form: {
        drafts: [
          { type: 'private', to: [other.id], topic: '', content: 'one', timestamp: NOW + 10.9 },
          { type: '', to: [], topic: '', content: 'two' },
        ],
      },
    });
    expectSuccess(res);
    const [a, b] = res.body.ids;
    const added = {
      type: 'drafts',
      op: 'add',
      drafts: [
        { id: a, type: 'private', to: [other.id], topic: '', content: 'one', timestamp: NOW + 10 },
        { id: b, type: '', to: [], topic: '', content: 'two', timestamp: NOW },
      ],
    };
    expect(await mine.next()).toEqual([{ ...added, id: 0 }]);
    expect(await mine2.next()).toEqual([{ ...added, id: 0 }]);

    expectSuccess(await t.patch(`drafts/${a}`, { as: member, form: { draft: { type: '', to: [], topic: '', content: 'edited', timestamp: NOW + 20 } } }));
    expect(await mine.next()).toEqual([
      { type: 'drafts', op: 'update', draft: { id: a, type: '', to: [], topic: '', content: 'edited', timestamp: NOW + 20 }, id: 1 },
    ]);

    expectSuccess(await t.delete(`drafts/${b}`, { as: member }));
    expect(await mine.next()).toEqual([{ type: 'drafts', op: 'remove', draft_id: b, id: 2 }]);
    expect((await mine2.ofType('drafts', 2)).map((e) => e.op)).toEqual(['update', 'remove']);
    expect(await others.drain()).toEqual([]);
    expect(await sub.drain()).toEqual([]);
  });

  it('sends nothing when the request fails', async () => {
    const [mine] = await clients(member);
    expect((await t.delete('drafts/999999', { as: member })).status).toBe(404);
    expect((await t.post('drafts', { as: member, form: { drafts: [{ type: 'stream', to: [999999], topic: 'x', content: 'x' }] } })).status).toBe(400);
    // A later event proves the queue was reached: the failed requests left nothing before it.
    const res = await t.post('drafts', { as: member, form: { drafts: [{ type: '', to: [], topic: '', content: 'later' }] } });
    expect((await mine.next()).map((e) => [e.op, (e.drafts as { id: number }[])[0].id])).toEqual([['add', res.body.ids[0]]]);
  });
});

describe('saved_snippets events', () => {
  it('add, update (the whole snippet after the edit) and remove, to the owner only', async () => {
    const [mine, others, sub] = await clients(member, other, subOwner);
    const res = await t.post('saved_snippets', { as: member, form: { title: ' Hi ', content: 'Hello there' } });
    expectSuccess(res);
    const id = res.body.saved_snippet_id;
    expect(await mine.next()).toEqual([
      { type: 'saved_snippets', op: 'add', saved_snippet: { id, title: 'Hi', content: 'Hello there', date_created: NOW }, id: 0 },
    ]);
    t.clock.advance(60);
    expectSuccess(await t.patch(`saved_snippets/${id}`, { as: member, form: { content: 'Hello again' } }));
    expect(await mine.next()).toEqual([
      { type: 'saved_snippets', op: 'update', saved_snippet: { id, title: 'Hi', content: 'Hello again', date_created: NOW }, id: 1 },
    ]);
    // Neither field: nothing happens, not even an event.
    expectSuccess(await t.patch(`saved_snippets/${id}`, { as: member, form: {} }));
    expectSuccess(await t.delete(`saved_snippets/${id}`, { as: member }));
    expect(await mine.next()).toEqual([{ type: 'saved_snippets', op: 'remove', saved_snippet_id: id, id: 2 }]);
    expect(await others.drain()).toEqual([]);
    expect(await sub.drain()).toEqual([]);
  });
});

describe('user_status events', () => {
  it('carries only the fields the request set, to every active user of the organization (bots included)', async () => {
    const [mine, others, owners, bots, sub] = await clients(member, other, t.owner, bot, subOwner);
    expectSuccess(await t.post('users/me/status', { as: member, form: { status_text: '  in a meeting ' } }));
    const text = { type: 'user_status', user_id: member.id, status_text: 'in a meeting' };
    for (const c of [mine, others, owners, bots]) expect(await c.next()).toEqual([{ ...text, id: 0 }]);

    expectSuccess(await t.post('users/me/status', { as: member, form: { emoji_name: 'car' } }));
    expect(await others.next()).toEqual([
      { type: 'user_status', user_id: member.id, emoji_name: 'car', emoji_code: '1f697', reaction_type: 'unicode_emoji', id: 1 },
    ]);

    expectSuccess(await t.post('users/me/status', { as: member, form: { away: true, status_text: '', emoji_name: '' } }));
    // `away` is the presence setting: its change is a (forced) presence update first, as in Zulip.
    const now = t.clock.now().getTime() / 1000;
    expect(await others.next()).toEqual([
      {
        type: 'presence',
        user_id: member.id,
        email: member.email,
        server_timestamp: now,
        // Never active: the join date (NOW) stands in for the activity; it is newer than the hidden connection time (now - 320 s).
        presence: { website: { client: 'website', status: 'active', timestamp: NOW, pushable: false } },
        id: 2,
      },
      { type: 'user_status', user_id: member.id, away: true, status_text: '', emoji_name: '', emoji_code: '', reaction_type: 'unicode_emoji', id: 3 },
    ]);
    expect(await sub.drain()).toEqual([]);
  });

  it('names the target user when an administrator sets someone’s status', async () => {
    const [others, sub] = await clients(other, subOwner);
    expectSuccess(await t.post(`users/${member.id}/status`, { as: t.owner, form: { status_text: 'on leave' } }));
    expect(await others.next()).toEqual([{ type: 'user_status', user_id: member.id, status_text: 'on leave', id: 0 }]);
    expect(await sub.drain()).toEqual([]);
  });

  it('sends nothing for a rejected update', async () => {
    const [others] = await clients(other);
    expect((await t.post('users/me/status', { as: member, form: {} })).status).toBe(400);
    expectSuccess(await t.post('users/me/status', { as: member, form: { status_text: 'back' } }));
    expect(await others.next()).toEqual([{ type: 'user_status', user_id: member.id, status_text: 'back', id: 0 }]);
  });
});
