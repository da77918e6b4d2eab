import { refusalOf, refusalText } from '../../test/builders.js';
import { activeRecipient, parseRecipients, recipientChannelNotFound } from './recipients.js';

describe('parseRecipients to a channel', () => {
  it.each(['channel', 'stream'] as const)('takes a channel name (trimmed) or id with type %s', (type) => {
    expect(parseRecipients(type, ' Verona ', 'lunch')).toEqual({ kind: 'channel', channel: 'Verona', topic: 'lunch' });
    expect(parseRecipients(type, 9, 'lunch')).toEqual({ kind: 'channel', channel: 9, topic: 'lunch' });
  });

  it('takes a one-element list as its element', () => {
    expect(parseRecipients('channel', ['Verona'], 'lunch')).toEqual({ kind: 'channel', channel: 'Verona', topic: 'lunch' });
    expect(parseRecipients('stream', [9], 'lunch')).toEqual({ kind: 'channel', channel: 9, topic: 'lunch' });
  });

  it('parses the topic as a new message does', () => {
    expect(parseRecipients('channel', 9, '  lunch  ')).toMatchObject({ topic: 'lunch' });
    expect(parseRecipients('channel', 9, '(no topic)')).toMatchObject({ topic: '' });
    expect(parseRecipients('channel', 9, 'x'.repeat(61))).toMatchObject({ topic: `${'x'.repeat(57)}...` });
    expect(refusalText(() => parseRecipients('channel', 9, 'a\u0000b'))).toBe('Invalid character in topic, at position 2!');
  });

  it('requires the channel', () => {
    expect(refusalOf(() => parseRecipients('channel', undefined, 'lunch'))).toEqual({ msg: 'Missing channel', code: 'BAD_REQUEST', data: {} });
  });

  it.each([[[]], [[1, 2]], [['a', 'b']]])('refuses the list %j', (to) => {
    expect(refusalText(() => parseRecipients('channel', to, 'lunch'))).toBe('Expected exactly one channel');
  });

  it('requires the topic, before judging the channel', () => {
    expect(refusalText(() => parseRecipients('stream', 9, undefined))).toBe('Missing topic');
    expect(refusalText(() => parseRecipients('stream', { id: 9 }, undefined))).toBe('Missing topic');
    expect(refusalText(() => parseRecipients('stream', { id: 9 }, 'a\u0007'))).toBe('Invalid character in topic, at position 2!');
  });

  it.each([[1.5], [true], [null], [{ id: 9 }], [[[9]]], [Number.MAX_SAFE_INTEGER + 1]])('refuses %j as a channel', (to) => {
    expect(refusalText(() => parseRecipients('channel', to, 'lunch'))).toBe('Invalid data type for channel');
  });
});

describe('parseRecipients of a direct message', () => {
  it.each(['direct', 'private'] as const)('takes user ids, distinct, with type %s', (type) => {
    expect(parseRecipients(type, [61, 62, 61], undefined)).toEqual({ kind: 'direct', by: 'id', userIds: [61, 62] });
    expect(parseRecipients(type, 61, 'ignored')).toEqual({ kind: 'direct', by: 'id', userIds: [61] });
  });

  it('takes emails, trimmed, without blanks, distinct', () => {
    expect(parseRecipients('direct', [' a@x.org ', 'b@x.org', '', 'a@x.org'], undefined)).toEqual({ kind: 'direct', by: 'email', emails: ['a@x.org', 'b@x.org'] });
  });

  it('takes a bare string as a comma-separated list of emails', () => {
    expect(parseRecipients('private', 'a@x.org, b@x.org,,', undefined)).toEqual({ kind: 'direct', by: 'email', emails: ['a@x.org', 'b@x.org'] });
  });

  it.each([[undefined], [[]], [''], [' , '], [['', ' ']]])('refuses %j as no recipients', (to) => {
    expect(refusalOf(() => parseRecipients('direct', to, undefined))).toEqual({ msg: 'Message must have recipients', code: 'BAD_REQUEST', data: {} });
  });

  it.each([
    [['a@x.org', 61]],
    [[61, 'a@x.org']],
    [[61, 1.5]],
    [[61, null]],
    [[61, Number.MAX_SAFE_INTEGER + 1]],
  ])('refuses the mixed list %j', (to) => {
    expect(refusalText(() => parseRecipients('direct', to, undefined))).toBe('Recipient lists may contain emails or user IDs, but not both.');
  });

  it.each([[true], [null], [{ id: 61 }], [[null]], [[true, 61]], [[[61]]]])('refuses %j as recipients', (to) => {
    expect(refusalText(() => parseRecipients('direct', to, undefined))).toBe('Invalid data type for recipients');
  });
});

describe('recipientChannelNotFound', () => {
  it('names the channel by id or by name, as Zulip does', () => {
    const byId = recipientChannelNotFound(99);
    expect([byId.msg, byId.code, byId.kind, byId.data]).toEqual(["Channel with ID '99' does not exist", 'STREAM_DOES_NOT_EXIST', 'invalid', { stream_id: 99 }]);
    const byName = recipientChannelNotFound('nowhere');
    expect([byName.msg, byName.code, byName.kind, byName.data]).toEqual(["Channel 'nowhere' does not exist", 'STREAM_DOES_NOT_EXIST', 'invalid', { stream: 'nowhere' }]);
  });
});

describe('activeRecipient', () => {
  const hamlet = { email: 'hamlet@x.org', isActive: true };

  it('is the user found, when active', () => {
    expect(activeRecipient(hamlet, 'HAMLET@x.org')).toBe(hamlet);
    expect(activeRecipient(hamlet, 61)).toBe(hamlet);
  });

  it('refuses a user not found, by the email or id the request named', () => {
    expect(refusalText(() => activeRecipient(undefined, 'ghost@x.org'))).toBe("Invalid email 'ghost@x.org'");
    expect(refusalText(() => activeRecipient(undefined, 404))).toBe('Invalid user ID 404');
  });

  it('refuses a deactivated user by their email', () => {
    expect(refusalOf(() => activeRecipient({ ...hamlet, isActive: false }, 61))).toEqual({
      msg: "'hamlet@x.org' is no longer using Zulip.",
      code: 'BAD_REQUEST',
      data: {},
    });
  });
});
