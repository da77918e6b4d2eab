import { refusalOf, refusalText } from '../../test/builders.js';
import { assertAnchorExcludable, listedMessages, MAX_MESSAGES_PER_FETCH, parseAnchor, parseFetchWindow } from './fetch-window.js';

describe('parseAnchor', () => {
  it.each(['newest', 'oldest', 'first_unread'] as const)('takes the named anchor %s', (name) => {
    expect(parseAnchor(name)).toBe(name);
  });

  it.each([
    ['42', 42],
    ['0', 0],
    [' 17 ', 17],
    ['-5', 0],
    ['007', 7],
  ])('takes the integer %j as %d (negative ones mean 0)', (raw, id) => {
    expect(parseAnchor(raw)).toBe(id);
  });

  it('lets use_first_unread_anchor win over any anchor, or its absence', () => {
    expect(parseAnchor('0', true)).toBe('first_unread');
    expect(parseAnchor('garbage', true)).toBe('first_unread');
    expect(parseAnchor(undefined, true)).toBe('first_unread');
    expect(parseAnchor('12', false)).toBe(12);
  });

  it('requires an anchor without use_first_unread_anchor', () => {
    expect(refusalOf(() => parseAnchor(undefined))).toEqual({ msg: "Missing 'anchor' argument.", code: 'BAD_REQUEST', data: {} });
    expect(refusalText(() => parseAnchor(undefined, false))).toBe("Missing 'anchor' argument.");
  });

  it.each(['', 'Newest', 'last', '1.5', '1e3', '+5', '0x10', '12abc', ' '])('refuses %j as an invalid anchor', (raw) => {
    expect(refusalOf(() => parseAnchor(raw))).toEqual({ msg: 'Invalid anchor', code: 'BAD_REQUEST', data: {} });
  });
});

describe('assertAnchorExcludable', () => {
  it.each([
    [{ numBefore: 5, numAfter: 5, includeAnchor: true }],
    [{ numBefore: 0, numAfter: 5, includeAnchor: false }],
    [{ numBefore: 5, numAfter: 0, includeAnchor: false }],
    [{ numBefore: 0, numAfter: 0, includeAnchor: false }],
  ])('allows %j', (w) => {
    expect(() => assertAnchorExcludable(w)).not.toThrow();
  });

  it('refuses to exclude an anchor inside the range', () => {
    expect(refusalText(() => assertAnchorExcludable({ numBefore: 1, numAfter: 1, includeAnchor: false }))).toBe(
      'The anchor can only be excluded at an end of the range',
    );
  });
});

describe('parseFetchWindow', () => {
  it('is a range around the anchor, counts defaulting to 0 and include_anchor to true', () => {
    expect(parseFetchWindow({ anchor: 'newest' })).toEqual({ anchor: 'newest', numBefore: 0, numAfter: 0, includeAnchor: true, messageIds: null });
    expect(parseFetchWindow({ anchor: '10', numBefore: 3, numAfter: 0, includeAnchor: false })).toEqual({
      anchor: 10,
      numBefore: 3,
      numAfter: 0,
      includeAnchor: false,
      messageIds: null,
    });
    expect(parseFetchWindow({ anchor: '10', useFirstUnreadAnchor: true, numAfter: 4 })).toMatchObject({ anchor: 'first_unread', numAfter: 4 });
  });

  it('is the listed messages with message_ids', () => {
    expect(parseFetchWindow({ messageIds: [3, 1] })).toEqual({ anchor: null, numBefore: 0, numAfter: 0, includeAnchor: true, messageIds: [3, 1] });
    expect(parseFetchWindow({ messageIds: [], includeAnchor: false })).toEqual(listedMessages([]));
  });

  it.each([
    ['anchor', { anchor: 'newest' }],
    ['num_before', { numBefore: 0 }],
    ['num_after', { numAfter: 1 }],
    ['use_first_unread_anchor', { useFirstUnreadAnchor: false }],
  ])('refuses message_ids with %s', (_name, extra) => {
    const parameters = 'num_before, num_after, anchor, message_ids, include_anchor, use_first_unread_anchor';
    expect(refusalOf(() => parseFetchWindow({ messageIds: [1], ...extra }))).toEqual({
      msg: `Unsupported parameter combination: ${parameters}`,
      code: 'BAD_REQUEST',
      data: { parameters },
    });
  });

  it('allows at most 5000 messages in all', () => {
    expect(MAX_MESSAGES_PER_FETCH).toBe(5000);
    expect(parseFetchWindow({ anchor: 'newest', numBefore: 2500, numAfter: 2500 })).toMatchObject({ numBefore: 2500, numAfter: 2500 });
    expect(refusalText(() => parseFetchWindow({ anchor: 'newest', numBefore: 2500, numAfter: 2501 }))).toBe('Too many messages requested (maximum 5000).');
    expect(refusalText(() => parseFetchWindow({ anchor: 'newest', numAfter: 5001 }))).toBe('Too many messages requested (maximum 5000).');
  });

  it('refuses an excluded anchor inside the range', () => {
    expect(refusalText(() => parseFetchWindow({ anchor: '5', numBefore: 1, numAfter: 1, includeAnchor: false }))).toBe(
      'The anchor can only be excluded at an end of the range',
    );
  });

  it("checks in Zulip's order: the anchor, then the count, then the excluded anchor", () => {
    expect(refusalText(() => parseFetchWindow({ numBefore: 5000, numAfter: 5000, includeAnchor: false }))).toBe("Missing 'anchor' argument.");
    expect(refusalText(() => parseFetchWindow({ anchor: 'x', numBefore: 5000, numAfter: 5000 }))).toBe('Invalid anchor');
    expect(refusalText(() => parseFetchWindow({ anchor: '1', numBefore: 5000, numAfter: 5000, includeAnchor: false }))).toBe(
      'Too many messages requested (maximum 5000).',
    );
  });
});
