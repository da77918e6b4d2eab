import { createChannels } from '../../support/channels.js';
import { EventClient } from '../../support/events.js';
import { fetchNarrow, sendDirect, sendToChannel } from '../../support/messages.js';
import { type Account, expectError, expectSuccess, TestApp } from '../../support/test-app.js';

/**
 * POST /messages/{message_id}/report (Zulip's zerver/views/message_report.py,
 * zerver/lib/message_report.py, zerver/tests/test_message_report.py): the Notification Bot posts
 * the report in the organization's moderation request channel, one topic per reported user.
 */
let t: TestApp;
let hamlet: Account;
let othello: Account;
let iago: Account;
let zoe: Account;
let guest: Account;
let bot: Account;
let otherOwner: Account;
let ch: Record<string, number>;
let realmUrl: string;
let reportedId: number;

const person = async (a: Account) => {
  const u = (await t.get(`users/${a.id}`)).body.user;
  return { id: a.id, fullName: u.full_name as string };
};
const mention = async (a: Account) => {
  const p = await person(a);
  return `@_**${p.fullName}|${p.id}**`;
};
const sentAt = async (id: number, as: Account = t.owner) => {
  const ts = (await t.get(`messages/${id}`, { as })).body.message.timestamp as number;
  return `<time:${new Date(ts * 1000).toISOString().replace('.000Z', '+00:00')}>`;
};
const report = (as: Account, id: number | string, form: Record<string, unknown>) => t.post(`messages/${id}/report`, { as, form });
type Report = { id: number; content: string; subject: string; sender_full_name: string };
/** The reports in a moderation channel (its creation notice aside), newest last, as the owner (subscribed) reads them. */
const reports = async (channel = 'reported messages') =>
  ((await fetchNarrow(t, t.owner, [{ operator: 'channel', operand: channel }], { apply_markdown: false, allow_empty_topic_name: true })) as unknown as Report[]).filter(
    (m) => !m.content.includes('channel created by'),
  );

beforeAll(async () => {
  t = await TestApp.start();
  hamlet = await t.createUser({ fullName: 'King Hamlet' });
  othello = await t.createUser({ fullName: 'Othello, the Moor of Venice' });
  iago = await t.createUser({ fullName: 'Iago' });
  zoe = await t.createUser({ fullName: 'Zoe' });
  guest = await t.createUser({ role: 600, fullName: 'Guest' });
  bot = await t.createBot(hamlet, 'reporter');
  otherOwner = await t.createOrganization('elsewhere');
  ch = await createChannels(t, ['Denmark'], { form: { principals: [t.owner.id, hamlet.id, othello.id, bot.id] } });
  Object.assign(ch, await createChannels(t, ['reported messages'], { form: { invite_only: true } }));
  Object.assign(ch, await createChannels(t, ['private channel'], { form: { invite_only: true, principals: [t.owner.id, hamlet.id, othello.id] } }));
  realmUrl = (await t.get('server_settings', { as: null })).body.realm_url;
  reportedId = await sendToChannel(t, othello, 'Denmark', 'civillized discussions', 'I squeeze toothpaste from the middle');
});
afterAll(() => t.close());

describe('with no moderation request channel', () => {
  it('answers "Message reporting is not enabled in this organization." (after the explanation check)', async () => {
    expectError(await report(hamlet, reportedId, { report_type: 'other' }), 400, 'An explanation is required.');
    expectError(await report(hamlet, reportedId, { report_type: 'harassment' }), 400, 'Message reporting is not enabled in this organization.');
    expectSuccess(await t.patch('realm', { form: { moderation_request_channel_id: ch['reported messages'] } }));
    expect(await reports()).toEqual([]);
  });
});

describe('reporting a channel message', () => {
  it('posts Zulip’s report, by the Notification Bot, in "<name> moderation"; its subscribers hear it', async () => {
    const queue = await EventClient.register(t, t.owner, { event_types: ['message'] });
    expectSuccess(await report(hamlet, reportedId, { report_type: 'harassment', description: 'this is crime against food' }));
    const [r] = await reports();
    expect(r.sender_full_name).toBe('Notification Bot');
    expect(r.subject).toBe('Othello, the Moor of Venice moderation');
    expect(r.content).toBe(
      `${await mention(hamlet)} reported a message sent by ${await mention(othello)} at ${await sentAt(reportedId)}.\n` +
        '```quote\n**Harassment**. this is crime against food\n```\n\n' +
        `\`\`\` spoiler Original message at #**Denmark>civillized discussions@${reportedId}**\nI squeeze toothpaste from the middle\n\`\`\``,
    );
    const [e] = await queue.ofType('message');
    expect((e.message as { id: number }).id).toBe(r.id);
    const html = (await t.get(`messages/${r.id}`)).body.message.content as string;
    expect(html).toContain('class="message-link"');
    expect(html).toContain(`/near/${reportedId}`);
  });

  it('lets anyone who can read the message report it, unsubscribed from a public channel, guests and bots included', async () => {
    expectSuccess(await report(zoe, reportedId, { report_type: 'spam' }));
    expectSuccess(await report(bot, reportedId, { report_type: 'norms' }));
    const all = await reports();
    expect(all.at(-2)!.content).toContain('```quote\n**Spam**. \n```');
    expect(all.at(-1)!.content).toContain('**Violates community norms**');
    const lobby = await sendToChannel(t, othello, 'Denmark', 'lobby', 'hello');
    expectError(await report(guest, lobby, { report_type: 'spam' }), 400, 'Invalid message(s)');
  });

  it('quotes a long message cut short, with a fence the message does not use', async () => {
    const long = '.'.repeat(8_501);
    const id = await sendToChannel(t, othello, 'Denmark', 'long', long);
    expectSuccess(await report(hamlet, id, { report_type: 'spam' }));
    const [r] = (await reports()).slice(-1);
    expect(r.content).toContain(`${'.'.repeat(8_500 - '\n[message truncated]'.length)}\n[message truncated]\n\`\`\``);
    const fenced = await sendToChannel(t, othello, 'Denmark', 'fences', '````\ncode\n````');
    expectSuccess(await report(hamlet, fenced, { report_type: 'spam' }));
    expect((await reports()).at(-1)!.content).toMatch(/\n````` spoiler Original message at .*\n````\ncode\n````\n`````$/);
  });

  it('links with a Markdown link where the channel name would break the #** syntax', async () => {
    const odd = await createChannels(t, ['Sw*den'], { form: { principals: [othello.id] } });
    const id = await sendToChannel(t, othello, 'Sw*den', 'hi', 'foo baz');
    expectSuccess(await report(hamlet, id, { report_type: 'inappropriate' }));
    expect((await reports()).at(-1)!.content).toContain(
      `Original message at [#Sw&#42;den > hi @ 💬](#narrow/channel/${odd['Sw*den']}-Sw*den/topic/hi/near/${id})`,
    );
  });
});

describe('reporting a direct message', () => {
  it('one-to-one: "a direct message sent by", linked by its conversation', async () => {
    const id = await sendDirect(t, othello, [hamlet.id], 'I dip fries in ice cream');
    expectSuccess(await report(hamlet, id, { report_type: 'harassment', description: 'stop' }));
    const ids = [hamlet.id, othello.id].sort((a, b) => a - b).join(',');
    expect((await reports()).at(-1)!.content).toBe(
      `${await mention(hamlet)} reported a direct message sent by ${await mention(othello)} at ${await sentAt(id, hamlet)}.\n` +
        '```quote\n**Harassment**. stop\n```\n\n' +
        `\`\`\` spoiler [Original message](${realmUrl}/#narrow/dm/${ids}/near/${id})\nI dip fries in ice cream\n\`\`\``,
    );
    expectError(await report(zoe, id, { report_type: 'harassment' }), 400, 'Invalid message(s)');
  });

  it('one’s own message names its recipient (oneself, in a conversation with oneself)', async () => {
    const toHamlet = await sendDirect(t, othello, [hamlet.id], 'Hi, you!');
    expectSuccess(await report(othello, toHamlet, { report_type: 'harassment', description: 'just testing' }));
    expect((await reports()).at(-1)!.content).toContain(`sent by ${await mention(othello)} to ${await mention(hamlet)} at `);
    const toSelf = await sendDirect(t, othello, [othello.id], 'Hi, me!');
    expectSuccess(await report(othello, toSelf, { report_type: 'harassment', description: 'just testing' }));
    const last = (await reports()).at(-1)!.content;
    expect(last).toContain(`sent by ${await mention(othello)} to ${await mention(othello)} at `);
    expect(last).toContain(`(${realmUrl}/#narrow/dm/${othello.id}/near/${toSelf})`);
  });

  it('a group: the other members sorted, "and" before the last', async () => {
    const id = await sendDirect(t, othello, [hamlet.id, iago.id, zoe.id], 'I eat cereal with water');
    expectSuccess(await report(hamlet, id, { report_type: 'harassment', description: 'Call the police please' }));
    const others = (await Promise.all([hamlet, iago, zoe].map(mention))).sort();
    const ids = [hamlet.id, othello.id, iago.id, zoe.id].sort((a, b) => a - b).join(',');
    const content = (await reports()).at(-1)!.content;
    expect(content).toContain(`sent by ${await mention(othello)} to ${others[0]}, ${others[1]}, and ${others[2]} at `);
    expect(content).toContain(`[Original message](${realmUrl}/#narrow/dm/${ids}-group/near/${id})`);
  });
});

describe('refused reports', () => {
  it('checks description, then report_type, then the setting and the message; nothing is posted', async () => {
    const before = (await reports()).length;
    expectError(await report(hamlet, reportedId, {}), 400, "Missing 'report_type' argument", 'REQUEST_VARIABLE_MISSING', { var_name: 'report_type' });
    expectError(await report(hamlet, reportedId, { report_type: 'rude' }), 400, 'Invalid report_type');
    expectError(await report(hamlet, reportedId, { report_type: 'other' }), 400, 'An explanation is required.');
    expectError(await report(hamlet, reportedId, { report_type: 'rude', description: 'd'.repeat(1001) }), 400, 'description is too long (limit: 1000 characters)');
    expectSuccess(await report(hamlet, reportedId, { report_type: 'other', description: 'd'.repeat(1000) }));
    const secret = await sendToChannel(t, othello, 'private channel', 'hush', 'I dip fries in ice cream');
    expectError(await report(zoe, secret, { report_type: 'spam' }), 400, 'Invalid message(s)');
    // Another organization: its own setting first, then the messages of this one look unknown.
    expectError(await report(otherOwner, reportedId, { report_type: 'spam' }), 400, 'Message reporting is not enabled in this organization.');
    const theirs = await t.post('users/me/subscriptions', { as: otherOwner, form: { subscriptions: [{ name: 'their mods' }], invite_only: true } });
    expectSuccess(theirs);
    const theirChannel = (await t.sql(`SELECT id FROM channels WHERE name = 'their mods'`))[0].id;
    expectSuccess(await t.patch('realm', { as: otherOwner, form: { moderation_request_channel_id: theirChannel } }));
    expectError(await report(otherOwner, secret, { report_type: 'spam' }), 400, 'Invalid message(s)');
    expectError(await report(otherOwner, reportedId, { report_type: 'spam' }), 400, 'Invalid message(s)');
    expectError(await report(hamlet, 999_999_999, { report_type: 'spam' }), 400, 'Invalid message(s)');
    expect((await report(hamlet, 'abc', { report_type: 'spam' })).status).toBe(404);
    expectError(await report(hamlet, reportedId, { report_type: 'spam', description: 'a\u0000b' }), 400, 'Invalid characters in description');
    expect((await reports()).length).toBe(before + 1);
  });

  it('an archived moderation channel takes no report', async () => {
    const modChannel = (await createChannels(t, ['mods2'], { form: { invite_only: true } })).mods2;
    expectSuccess(await t.patch('realm', { form: { moderation_request_channel_id: modChannel } }));
    expectSuccess(await t.delete(`streams/${modChannel}`));
    expectError(await report(hamlet, reportedId, { report_type: 'spam' }), 400, 'Message reporting is not enabled in this organization.');
    expectSuccess(await t.patch('realm', { form: { moderation_request_channel_id: ch['reported messages'] } }));
  });
});

describe('a moderation channel with only the empty topic', () => {
  it('gets reports in the empty topic', async () => {
    const modChannel = (await createChannels(t, ['general chat mods'], { form: { invite_only: true, topics_policy: '"empty_topic_only"' } }))['general chat mods'];
    expectSuccess(await t.patch('realm', { form: { moderation_request_channel_id: modChannel } }));
    expectSuccess(await report(hamlet, reportedId, { report_type: 'spam' }));
    expect((await reports('general chat mods')).at(-1)!.subject).toBe('');
  });
});

describe('register', () => {
  it('lists the report types as server_report_message_types', async () => {
    const reg = await t.post('register', { as: hamlet, form: { fetch_event_types: ['realm'] } });
    expect(reg.body.server_report_message_types).toEqual([
      { key: 'spam', name: 'Spam' },
      { key: 'harassment', name: 'Harassment' },
      { key: 'inappropriate', name: 'Inappropriate content' },
      { key: 'norms', name: 'Violates community norms' },
      { key: 'other', name: 'Other reason' },
    ]);
  });
});
