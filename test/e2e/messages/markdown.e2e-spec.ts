import { StatementCounter } from '../../../src/shared/persistence/statement-counter.js';
import { createChannels } from '../../support/channels.js';
import { EventClient } from '../../support/events.js';
import { sendToChannel } from '../../support/messages.js';
import { type Account, expectError, expectSuccess, TestApp } from '../../support/test-app.js';

/**
 * Zulip's Markdown through the API: channel links (only channels the sender may see, only in
 * the sender's organization), custom emoji, linkifiers and the rest of the dialect in POST
 * /messages/render, in sent and edited messages and in their events; names resolved with a
 * constant number of statements.
 */

let t: TestApp;
let alice: Account;
let bob: Account;
let guest: Account;
let other: Account;
let ids: Record<string, number>;

const sql = (text: string, params: unknown[] = []) => t.sql(text, params);

beforeAll(async () => {
  t = await TestApp.start();
  alice = await t.createUser({ fullName: 'Alice' });
  bob = await t.createUser({ fullName: 'Bob' });
  guest = await t.createUser({ fullName: 'Gus', role: 600 });
  other = await t.createOrganization('other');
  ids = await createChannels(t, ['general', 'design team']);
  Object.assign(ids, await createChannels(t, ['vault'], { as: bob, form: { invite_only: true } }));
  await t.post('users/me/subscriptions', { form: { subscriptions: [{ name: 'general' }], principals: [alice.id, bob.id, guest.id] } });
  expectSuccess(await t.post('users/me/subscriptions', { as: other, form: { subscriptions: [{ name: 'elsewhere' }] } }));
  expectSuccess(await t.post('realm/filters', { form: { pattern: '#(?P<id>[0-9]+)', url_template: 'https://github.com/zulip/zulip/issues/{id}' } }));
  expectSuccess(await t.post('realm/filters', { as: other, form: { pattern: 'OTHER-(?P<id>[0-9]+)', url_template: 'https://other.example/{id}' } }));
  await sql(`INSERT INTO realm_emoji (realm_id, name, author_id, file_name, is_animated) VALUES (1, 'party_parrot', $1, '7.gif', false)`, [alice.id]);
  await sql(
    `INSERT INTO realm_emoji (realm_id, name, author_id, file_name, is_animated)
     SELECT realm_id, 'other_parrot', id, '8.gif', false FROM users WHERE id = $1`,
    [other.id],
  );
});
afterAll(() => t.close());

const render = async (as: Account, content: string): Promise<string> => {
  const res = await t.post('messages/render', { as, form: { content } });
  expectSuccess(res);
  return res.body.rendered;
};

const channelLink = (id: number, slug: string, name: string) =>
  `<a class="stream" data-stream-id="${id}" href="/#narrow/channel/${id}-${slug}">#${name}</a>`;

describe('POST /messages/render', () => {
  it("renders channel, topic and message links, emoji, linkifiers, math and times as Zulip does", async () => {
    const html = await render(alice, '#**general** #**design team>lunch.plans** #**general>t@12** :party_parrot: :cat: fixes #42 <time:2024-01-01T10:00:00Z> ~~old~~');
    expect(html).toBe(
      `<p>${channelLink(ids.general, 'general', 'general')} ` +
        `<a class="stream-topic" data-stream-id="${ids['design team']}" href="/#narrow/channel/${ids['design team']}-design-team/topic/lunch.2Eplans">#design team &gt; lunch.plans</a> ` +
        `<a class="message-link" href="/#narrow/channel/${ids.general}-general/topic/t/near/12">#general &gt; t @ 💬</a> ` +
        `<img alt=":party_parrot:" class="emoji" src="/user_avatars/1/emoji/images/7.gif" title="party parrot"> ` +
        `<span aria-label="cat" class="emoji emoji-1f408" role="img" title="cat">:cat:</span> ` +
        `fixes <a href="https://github.com/zulip/zulip/issues/42">#42</a> ` +
        `<time datetime="2024-01-01T10:00:00Z">2024-01-01T10:00:00Z</time> <del>old</del></p>`,
    );
  });

  it('links a private channel only for those who may see it; guests see only their subscriptions', async () => {
    expect(await render(bob, '#**vault**')).toBe(`<p>${channelLink(ids.vault, 'vault', 'vault')}</p>`);
    expect(await render(alice, '#**vault**')).toBe('<p>#<strong>vault</strong></p>');
    expect(await render(guest, '#**design team** #**general**')).toBe(`<p>#<strong>design team</strong> ${channelLink(ids.general, 'general', 'general')}</p>`);
  });

  it("never resolves another organization's channels, emoji or linkifiers", async () => {
    expect(await render(alice, '#**elsewhere** :other_parrot: OTHER-7')).toBe('<p>#<strong>elsewhere</strong> :other_parrot: OTHER-7</p>');
    expect(await render(other, '#**design team** :party_parrot: #42 OTHER-7')).toBe(
      '<p>#<strong>design team</strong> :party_parrot: #42 <a href="https://other.example/7">OTHER-7</a></p>',
    );
  });

  it('renders quotes, spoilers, code and display math', async () => {
    const html = await render(alice, '```quote\nsaid **this**\n```\n```spoiler Plot\ntwist\n```\n```python\nx = 1\n```\n```math\nx^2\n```');
    expect(html).toContain('<blockquote>\n<p>said <strong>this</strong></p>\n</blockquote>');
    expect(html).toContain('<div class="spoiler-block"><div class="spoiler-header">\n<p>Plot</p>\n</div><div class="spoiler-content" aria-hidden="true">\n<p>twist</p>\n</div></div>');
    expect(html).toMatch(/<div class="codehilite" data-code-language="Python"><pre><span><\/span><code>x (<span class="o">)?=(<\/span>)? <span class="mi">1<\/span>\n<\/code><\/pre><\/div>/);
    expect(html).toContain('<p><span class="katex-display"><span class="katex">');
  });

  it('refuses bad input with Zulip errors and writes nothing', async () => {
    const before = await sql(`SELECT count(*)::int AS n FROM messages`);
    expectError(await t.post('messages/render', { as: alice, form: {} }), 400, "Missing 'content' argument", 'REQUEST_VARIABLE_MISSING', { var_name: 'content' });
    expectError(await t.post('messages/render', { as: alice, form: { content: '#**general** '.repeat(1000) } }), 400, 'content is too long (limit: 10000 characters)');
    expect(await sql(`SELECT count(*)::int AS n FROM messages`)).toEqual(before);
  });

  it('resolves any number of names with the same statements', async () => {
    const counter = t.app.get(StatementCounter);
    const cost = async (content: string) => {
      const start = counter.count;
      expectSuccess(await t.post('messages/render', { as: alice, form: { content } }));
      return counter.count - start;
    };
    const one = await cost('#**general** :party_parrot: #1');
    const many = await cost(Array.from({ length: 40 }, (_, i) => `#**general** #**c${i}** :e${i}: :party_parrot: #${i}`).join(' '));
    expect(many).toBe(one);
  });
});

describe('sent and edited messages', () => {
  it('store the rendering and send it in the message and update_message events', async () => {
    const queue = await EventClient.register(t, bob, { event_types: ['message', 'update_message'], apply_markdown: true });
    const id = await sendToChannel(t, alice, 'general', 'links', 'see #**general** :cat:');
    const expected = `<p>see ${channelLink(ids.general, 'general', 'general')} <span aria-label="cat" class="emoji emoji-1f408" role="img" title="cat">:cat:</span></p>`;
    const [event] = await queue.ofType('message');
    expect((event.message as Record<string, unknown>).content).toBe(expected);
    expect((await t.get(`messages/${id}`, { as: bob })).body.message.content).toBe(expected);

    expectSuccess(await t.patch(`messages/${id}`, { as: alice, form: { content: 'now #**design team** fixes #7' } }));
    const [update] = await queue.ofType('update_message');
    const edited = `<p>now ${channelLink(ids['design team'], 'design-team', 'design team')} fixes <a href="https://github.com/zulip/zulip/issues/7">#7</a></p>`;
    expect(update.rendered_content).toBe(edited);
    expect((await sql(`SELECT rendered_content FROM messages WHERE id = $1`, [id]))[0].rendered_content).toBe(edited);
  });
});
