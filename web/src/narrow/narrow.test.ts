import {
  decodeHashComponent,
  describeNarrow,
  encodeHashComponent,
  hashToNarrow,
  type Narrow,
  type NarrowLookup,
  narrowToApi,
  narrowToHash,
  narrowToSearchText,
  parseSearch,
  resolveNarrow,
  unparse,
} from './narrow';

const lookup: NarrowLookup = {
  channelName: (id) => ({ 10: 'general', 11: 'sandbox', 12: 'design team' })[id],
  channelId: (name) => ({ general: 10, sandbox: 11, 'design team': 12 })[name.toLowerCase()],
  userName: (id) => ({ 1: 'Desdemona Owner', 2: 'Pat Lee', 3: 'Sam Rivera' })[id],
  userEmail: (id) => ({ 1: 'owner@example.com', 2: 'pat@example.com', 3: 'sam@example.com' })[id],
  userIdByEmail: (email) => ({ 'owner@example.com': 1, 'pat@example.com': 2, 'sam@example.com': 3 })[email.toLowerCase()],
  userIdByName: (name) => ({ 'pat lee': 2 })[name.toLowerCase()],
};

describe('parsing the search box', () => {
  it.each<[string, Narrow]>([
    ['channel:general', [{ operator: 'channel', operand: 'general' }]],
    ['stream:general', [{ operator: 'channel', operand: 'general' }]],
    ['topic:greetings', [{ operator: 'topic', operand: 'greetings' }]],
    ['subject:greetings', [{ operator: 'topic', operand: 'greetings' }]],
    ['dm:pat@example.com', [{ operator: 'dm', operand: 'pat@example.com' }]],
    ['pm-with:pat@example.com', [{ operator: 'dm', operand: 'pat@example.com' }]],
    ['sender:pat@example.com', [{ operator: 'sender', operand: 'pat@example.com' }]],
    ['from:pat@example.com', [{ operator: 'sender', operand: 'pat@example.com' }]],
    ['is:starred', [{ operator: 'is', operand: 'starred' }]],
    ['is:mentioned', [{ operator: 'is', operand: 'mentioned' }]],
    ['is:unread', [{ operator: 'is', operand: 'unread' }]],
    ['is:private', [{ operator: 'is', operand: 'dm' }]],
    ['IS:Starred', [{ operator: 'is', operand: 'starred' }]],
    ['has:image', [{ operator: 'has', operand: 'image' }]],
    ['zanzibar', [{ operator: 'search', operand: 'zanzibar' }]],
  ])('%s', (text, terms) => {
    expect(parseSearch(text)).toEqual(terms);
  });

  it('joins plain words into one search term after the operators', () => {
    expect(parseSearch('hello channel:sandbox big world')).toEqual([
      { operator: 'channel', operand: 'sandbox' },
      { operator: 'search', operand: 'hello big world' },
    ]);
  });

  it('takes quoted operands with spaces, and + as a space', () => {
    expect(parseSearch('channel:"design team" topic:"hello world"')).toEqual([
      { operator: 'channel', operand: 'design team' },
      { operator: 'topic', operand: 'hello world' },
    ]);
    expect(parseSearch('topic:hello+world')).toEqual([{ operator: 'topic', operand: 'hello world' }]);
    expect(parseSearch('topic:c%2B%2B')).toEqual([{ operator: 'topic', operand: 'c++' }]);
  });

  it('keeps a quoted phrase as a phrase search', () => {
    expect(parseSearch('"exact phrase" channel:general')).toEqual([
      { operator: 'channel', operand: 'general' },
      { operator: 'search', operand: '"exact phrase"' },
    ]);
  });

  it('negates an operator with a leading -', () => {
    expect(parseSearch('channel:general -topic:noise -is:starred')).toEqual([
      { operator: 'channel', operand: 'general' },
      { operator: 'topic', operand: 'noise', negated: true },
      { operator: 'is', operand: 'starred', negated: true },
    ]);
  });

  it('treats unknown operators and empty operands as words', () => {
    expect(parseSearch('http://example.com colour:red topic:')).toEqual([{ operator: 'search', operand: 'http://example.com colour:red topic:' }]);
  });

  it('gives nothing for empty text', () => {
    expect(parseSearch('   ')).toEqual([]);
  });

  it('unparses back to the same terms', () => {
    const terms: Narrow = [
      { operator: 'channel', operand: 'design team' },
      { operator: 'topic', operand: 'a "quoted" + 100% topic' },
      { operator: 'sender', operand: 'pat@example.com', negated: true },
      { operator: 'search', operand: 'some words' },
    ];
    expect(parseSearch(unparse(terms))).toEqual(terms);
  });
});

describe('the URL hash', () => {
  it("encodes components as Zulip does ('.' for '%')", () => {
    expect(encodeHashComponent('hello world')).toBe('hello.20world');
    expect(encodeHashComponent('v1.2 (beta)')).toBe('v1.2E2.20.28beta.29');
    expect(decodeHashComponent('hello.20world')).toBe('hello world');
    expect(decodeHashComponent(encodeHashComponent('ünïcödé/slash.dot'))).toBe('ünïcödé/slash.dot');
  });

  it('writes channel and topic narrows with the id and name', () => {
    const terms = [
      { operator: 'channel', operand: '12' },
      { operator: 'topic', operand: 'hello world' },
    ];
    expect(narrowToHash(terms, lookup)).toBe('#narrow/channel/12-design-team/topic/hello.20world');
    expect(hashToNarrow('#narrow/channel/12-design-team/topic/hello.20world')).toEqual(terms);
  });

  it('reads the older stream/ form and names', () => {
    expect(hashToNarrow('#narrow/stream/10-general')).toEqual([{ operator: 'channel', operand: '10' }]);
    expect(hashToNarrow('#narrow/channel/general')).toEqual([{ operator: 'channel', operand: 'general' }]);
  });

  it('writes DMs and senders with ids', () => {
    expect(narrowToHash([{ operator: 'dm', operand: '2' }], lookup)).toBe('#narrow/dm/2-Pat-Lee');
    expect(narrowToHash([{ operator: 'dm', operand: '2,3' }], lookup)).toBe('#narrow/dm/2,3-group');
    expect(hashToNarrow('#narrow/dm/2,3-group')).toEqual([{ operator: 'dm', operand: '2,3' }]);
    expect(hashToNarrow('#narrow/sender/2-Pat-Lee')).toEqual([{ operator: 'sender', operand: '2' }]);
  });

  it('keeps negation, is: and search', () => {
    const terms: Narrow = [
      { operator: 'is', operand: 'starred' },
      { operator: 'topic', operand: 'noise', negated: true },
      { operator: 'search', operand: 'two words' },
    ];
    const hash = narrowToHash(terms, lookup);
    expect(hash).toBe('#narrow/is/starred/-topic/noise/search/two.20words');
    expect(hashToNarrow(hash)).toEqual(terms);
  });

  it('has #feed for all messages, and null for other hashes', () => {
    expect(narrowToHash([], lookup)).toBe('#feed');
    expect(hashToNarrow('#feed')).toEqual([]);
    expect(hashToNarrow('')).toEqual([]);
    expect(hashToNarrow('#settings')).toBeNull();
  });

  it('round-trips search text → narrow → hash → narrow', () => {
    for (const text of ['channel:general topic:greetings', 'stream:"design team" is:unread', 'dm:pat@example.com', 'sender:sam@example.com zanzibar', '-topic:"a b" is:mentioned']) {
      const terms = resolveNarrow(parseSearch(text), lookup);
      expect(hashToNarrow(narrowToHash(terms, lookup))).toEqual(terms);
    }
  });
});

describe('resolving names', () => {
  it('turns channel names, emails and names into ids (a dm sorted)', () => {
    expect(
      resolveNarrow(
        [
          { operator: 'channel', operand: 'General' },
          { operator: 'dm', operand: 'sam@example.com,Pat Lee' },
          { operator: 'sender', operand: 'pat@example.com' },
        ],
        lookup,
      ),
    ).toEqual([
      { operator: 'channel', operand: '10' },
      { operator: 'dm', operand: '2,3' },
      { operator: 'sender', operand: '2' },
    ]);
  });

  it('leaves unknown names as they are (the server answers for them)', () => {
    expect(resolveNarrow([{ operator: 'channel', operand: 'nowhere' }], lookup)).toEqual([{ operator: 'channel', operand: 'nowhere' }]);
  });

  it('gives the API ids as numbers and dm lists', () => {
    expect(
      narrowToApi([
        { operator: 'channel', operand: '10' },
        { operator: 'dm', operand: '2,3' },
        { operator: 'search', operand: 'x', negated: true },
      ]),
    ).toEqual([
      { operator: 'channel', operand: 10 },
      { operator: 'dm', operand: [2, 3] },
      { operator: 'search', operand: 'x', negated: true },
    ]);
  });

  it('shows the narrow in the search box with names', () => {
    expect(
      narrowToSearchText(
        [
          { operator: 'channel', operand: '12' },
          { operator: 'dm', operand: '2' },
        ],
        lookup,
      ),
    ).toBe('channel:design+team dm:pat@example.com');
  });

  it('describes narrows', () => {
    expect(describeNarrow([], lookup)).toBe('All messages');
    expect(describeNarrow([{ operator: 'is', operand: 'starred' }], lookup)).toBe('Starred messages');
    expect(describeNarrow([{ operator: 'is', operand: 'mentioned' }], lookup)).toBe('Mentions');
    expect(describeNarrow([{ operator: 'channel', operand: '10' }, { operator: 'topic', operand: 'hi' }], lookup)).toBe('#general › hi');
    expect(describeNarrow([{ operator: 'dm', operand: '2,3' }], lookup)).toBe('Direct messages with Pat Lee, Sam Rivera');
    expect(describeNarrow([{ operator: 'search', operand: 'x' }], lookup)).toBe('Search results');
  });
});
