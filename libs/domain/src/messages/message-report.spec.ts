import { assertCanReport, MAX_REPORT_MESSAGE_SNIPPET_LENGTH, messageReportContent, messageReportTopic, type ReportedMessage } from './message-report.js';

const hamlet = { id: 10, fullName: 'King Hamlet' };
const othello = { id: 12, fullName: 'Othello' };
const iago = { id: 11, fullName: 'Iago' };
const zoe = { id: 15, fullName: 'Zoe' };
const at = new Date('2026-03-01T10:20:30.456Z');
const URL = 'https://chat.example.com';
const inChannel: ReportedMessage = { id: 99, content: 'I squeeze toothpaste from the middle', dateSent: at, sender: othello, channel: { id: 3, name: 'Denmark', topic: 'civillized discussions' }, participants: [] };

describe('reporting a message', () => {
  it('checks the explanation before the setting', () => {
    expect(() => assertCanReport('other', '', null)).toThrow('An explanation is required.');
    expect(() => assertCanReport('spam', '', null)).toThrow('Message reporting is not enabled in this organization.');
    expect(() => assertCanReport('other', 'why', 5)).not.toThrow();
  });

  it('writes Zulip’s report of a channel message', () => {
    expect(messageReportContent(hamlet, inChannel, 'harassment', 'this is crime against food', URL)).toBe(
      '@_**King Hamlet|10** reported a message sent by @_**Othello|12** at <time:2026-03-01T10:20:30+00:00>.\n' +
        '```quote\n**Harassment**. this is crime against food\n```\n\n' +
        '``` spoiler Original message at #**Denmark>civillized discussions@99**\nI squeeze toothpaste from the middle\n```',
    );
  });

  it('names the recipients of a direct message as Zulip does', () => {
    const dm = (participants: typeof hamlet[], sender = othello): ReportedMessage => ({ ...inChannel, channel: null, sender, participants });
    expect(messageReportContent(hamlet, dm([hamlet, othello]), 'spam', '', URL)).toMatch(
      /^@_\*\*King Hamlet\|10\*\* reported a direct message sent by @_\*\*Othello\|12\*\* at <time:[^>]+>\.\n/,
    );
    expect(messageReportContent(othello, dm([hamlet, othello]), 'spam', '', URL)).toContain('sent by @_**Othello|12** to @_**King Hamlet|10** at');
    expect(messageReportContent(othello, dm([othello]), 'spam', '', URL)).toContain(`sent by @_**Othello|12** to @_**Othello|12** at`);
    expect(messageReportContent(othello, dm([othello]), 'spam', '', URL)).toContain(`[Original message](${URL}/#narrow/dm/12/near/99)`);
    const group = messageReportContent(hamlet, dm([hamlet, iago, othello, zoe]), 'spam', '', URL);
    expect(group).toContain('to @_**Iago|11**, @_**King Hamlet|10**, and @_**Zoe|15** at');
    expect(group).toContain(`[Original message](${URL}/#narrow/dm/10,11,12,15-group/near/99)`);
    expect(messageReportContent(hamlet, dm([hamlet, iago, othello]), 'spam', '', URL)).toContain('to @_**Iago|11** and @_**King Hamlet|10** at');
  });

  it('cuts a long message and fences it with a fence it does not use', () => {
    const long = messageReportContent(hamlet, { ...inChannel, content: 'x'.repeat(MAX_REPORT_MESSAGE_SNIPPET_LENGTH + 1) }, 'spam', '', URL);
    expect(long).toContain(`${'x'.repeat(MAX_REPORT_MESSAGE_SNIPPET_LENGTH - 20)}\n[message truncated]\n\`\`\``);
    expect(messageReportContent(hamlet, { ...inChannel, content: '```\ncode\n```' }, 'spam', '', URL)).toMatch(/\n```` spoiler .*\n```\ncode\n```\n````$/);
  });

  it('puts the report in the reported user’s topic, or the empty topic', () => {
    expect(messageReportTopic(othello, false)).toBe('Othello moderation');
    expect(messageReportTopic({ id: 1, fullName: 'n'.repeat(60) }, false)).toBe(`${'n'.repeat(57)}...`);
    expect(messageReportTopic(othello, true)).toBe('');
  });
});
