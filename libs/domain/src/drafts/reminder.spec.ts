import {
  deliveryTime,
  encodeChannel,
  encodeHashComponent,
  messageLinkSyntax,
  messageUrl,
  normaliseReminderNote,
  reminderContent,
  type ReminderTarget,
  unusedFence,
} from './reminder.js';

const REALM = 'http://zulip.testserver';
const hamlet = { id: 10, fullName: 'King Hamlet' };
const dm = (content: string, id = 55): ReminderTarget => ({ id, content, sender: hamlet, channel: null, participantIds: [12, 10] });
const inVerona = (content: string, topic = 'test', id = 55): ReminderTarget => ({
  id,
  content,
  sender: hamlet,
  channel: { id: 3, name: 'Verona', topic },
  participantIds: [],
});

describe('reminder delivery time', () => {
  const now = new Date('2025-01-01T00:00:00Z');
  const nowSeconds = now.getTime() / 1000;
  it('must be strictly in the future', () => {
    expect(deliveryTime(nowSeconds + 1, now)).toEqual(new Date('2025-01-01T00:00:01Z'));
    expect(() => deliveryTime(nowSeconds, now)).toThrow('Scheduled delivery time must be in the future.');
    expect(() => deliveryTime(nowSeconds - 86_400, now)).toThrow('Scheduled delivery time must be in the future.');
    expect(() => deliveryTime(-1e12, now)).toThrow('Scheduled delivery time must be in the future.');
  });
  it('must be a date Zulip can represent (year 9999 at most)', () => {
    expect(deliveryTime(253_402_300_799, now)).toEqual(new Date('9999-12-31T23:59:59Z'));
    expect(() => deliveryTime(253_402_300_800, now)).toThrow('scheduled_delivery_timestamp is too large');
    expect(() => deliveryTime(Number.MAX_SAFE_INTEGER, now)).toThrow('scheduled_delivery_timestamp is too large');
  });
});

describe('reminder notes', () => {
  it('lose trailing whitespace and leading newlines only', () => {
    expect(normaliseReminderNote('\n\n  look \n\t ')).toBe('  look');
    expect(normaliseReminderNote('a\x1c')).toBe('a'); // Python's whitespace, not JavaScript's
    expect(normaliseReminderNote('a\ufeff')).toBe('a\ufeff');
  });
  it('hold at most 1000 code points after that', () => {
    expect(normaliseReminderNote(`${'😀'.repeat(1000)}   `)).toBe('😀'.repeat(1000));
    expect(() => normaliseReminderNote('x'.repeat(1001))).toThrow('Maximum reminder note length: 1000 characters');
  });
});

describe('message links', () => {
  it('encode hash components as Zulip does', () => {
    expect(encodeHashComponent('{789}')).toBe('.7B789.7D');
    expect(encodeHashComponent('a.b (c)/d*e~f_g-h')).toBe('a.2Eb.20.28c.29.2Fd*e~f_g-h');
    expect(encodeHashComponent('café')).toBe('caf.C3.A9');
    expect(encodeChannel(3, 'Verona city')).toBe('3-Verona-city');
  });
  it('point at channel messages and direct conversations', () => {
    expect(messageUrl(REALM, inVerona('x'))).toBe('http://zulip.testserver/#narrow/channel/3-Verona/topic/test/near/55');
    expect(messageUrl(REALM, inVerona('x', ''))).toBe('http://zulip.testserver/#narrow/channel/3-Verona/topic//near/55');
    expect(messageUrl(REALM, dm('x'))).toBe('http://zulip.testserver/#narrow/dm/10,12/near/55');
    expect(messageUrl(REALM, { ...dm('x'), participantIds: [10] })).toBe('http://zulip.testserver/#narrow/dm/10/near/55');
    expect(messageUrl(REALM, { ...dm('x'), participantIds: [15, 10, 12] })).toBe('http://zulip.testserver/#narrow/dm/10,12,15-group/near/55');
  });
  it('use the #**channel>topic@id** syntax unless a name would break it', () => {
    expect(messageLinkSyntax(3, 'Verona', '{789}', 55)).toBe('#**Verona>{789}@55**');
    expect(messageLinkSyntax(3, 'Verona', '', 55)).toBe('#**Verona>@55**');
    expect(messageLinkSyntax(3, 'Verona', 'a > b', 55)).toBe('[#Verona > a &gt; b @ 💬](#narrow/channel/3-Verona/topic/a.20.3E.20b/near/55)');
    expect(messageLinkSyntax(3, 'R&D [x]', '', 55)).toBe(
      '[#R&amp;D &#91;x&#93; > general chat @ 💬](#narrow/channel/3-R.26D-.5Bx.5D/topic//near/55)',
    );
    expect(messageLinkSyntax(3, 'cost', '$$x*`', 55)).toBe('[#cost > &#36;&#36;x&#42;&#96; @ 💬](#narrow/channel/3-cost/topic/.24.24x*.60/near/55)');
  });
});

describe('unused fence', () => {
  it('is three backticks unless a line already starts with a longer fence', () => {
    expect(unusedFence('no fences ``` here')).toBe('```');
    expect(unusedFence('a\n```\nb')).toBe('````');
    expect(unusedFence('a\n   `````x')).toBe('``````');
    expect(unusedFence('a\n    ````')).toBe('```'); // four spaces: an indented code line
  });
});

describe('reminder content (Zulip test_reminders.py)', () => {
  it('quotes a direct message', () => {
    expect(reminderContent(dm('Test message'), REALM, '')).toBe(
      'You requested a reminder for the following direct message.\n\n' +
        '@_**King Hamlet|10** [said](http://zulip.testserver/#narrow/dm/10,12/near/55):\n```quote\nTest message\n```',
    );
  });
  it('links and quotes a channel message', () => {
    expect(reminderContent(inVerona('Test message'), REALM, '')).toBe(
      'You requested a reminder for #**Verona>test@55**.\n\n' +
        '@_**King Hamlet|10** [said](http://zulip.testserver/#narrow/channel/3-Verona/topic/test/near/55):\n```quote\nTest message\n```',
    );
  });
  it('adds the note as a quote line', () => {
    const note = 'This is a note for the reminder.';
    expect(reminderContent(inVerona('Test message with notes'), REALM, note)).toBe(
      `You requested a reminder for #**Verona>test@55**. Note:\n > ${note}\n\n` +
        '@_**King Hamlet|10** [said](http://zulip.testserver/#narrow/channel/3-Verona/topic/test/near/55):\n```quote\nTest message with notes\n```',
    );
    expect(reminderContent(dm('Test message with notes'), REALM, note)).toBe(
      `You requested a reminder for the following direct message. Note:\n > ${note}\n\n` +
        '@_**King Hamlet|10** [said](http://zulip.testserver/#narrow/dm/10,12/near/55):\n```quote\nTest message with notes\n```',
    );
    expect(reminderContent(inVerona('{456}', '{789}'), REALM, '{123}')).toBe(
      'You requested a reminder for #**Verona>{789}@55**. Note:\n > {123}\n\n' +
        '@_**King Hamlet|10** [said](http://zulip.testserver/#narrow/channel/3-Verona/topic/.7B789.7D/near/55):\n```quote\n{456}\n```',
    );
  });
  it('drops a note that is blank once normalised; refuses one too long', () => {
    expect(reminderContent(dm('hi'), REALM, ' \n ')).toMatch(/^You requested a reminder for the following direct message\.\n\n/);
    expect(() => reminderContent(dm('hi'), REALM, 'x'.repeat(1001))).toThrow('Maximum reminder note length: 1000 characters');
  });
  it('refuses a note with NUL like message content', () => {
    expect(() => reminderContent(dm('hi'), REALM, 'a\0b')).toThrow('Message must not contain null bytes');
  });
  it('names polls and todo lists instead of quoting them', () => {
    expect(reminderContent(dm('/poll What is your favorite color?'), REALM, '')).toBe(
      'You requested a reminder for the following direct message.\n\n' +
        '@_**King Hamlet|10** [sent](http://zulip.testserver/#narrow/dm/10,12/near/55) a poll.',
    );
    expect(reminderContent(dm('/todo List of tasks'), REALM, '')).toBe(
      'You requested a reminder for the following direct message.\n\n' +
        '@_**King Hamlet|10** [sent](http://zulip.testserver/#narrow/dm/10,12/near/55) a todo list.',
    );
  });
  it('truncates the quote so the whole text holds 10000 characters', () => {
    const content = 'x'.repeat(10_000);
    const wrapperLength = reminderContent(dm('\n[message truncated]'), REALM, '').length;
    const out = reminderContent(dm(content), REALM, '');
    expect(out).toBe(
      'You requested a reminder for the following direct message.\n\n' +
        '@_**King Hamlet|10** [said](http://zulip.testserver/#narrow/dm/10,12/near/55):\n```quote\n' +
        `${content.slice(0, -wrapperLength)}\n[message truncated]\n\`\`\``,
    );
    expect(out).toHaveLength(10_000);
  });
  it('chooses the fence from the text before the quote, as Zulip does', () => {
    expect(reminderContent(dm('```\ncode\n```'), REALM, '')).toContain(':\n```quote\n```\ncode\n```\n```');
    expect(reminderContent(dm('hi'), REALM, 'see\n````')).toContain(':\n`````quote\nhi\n`````');
  });
});
