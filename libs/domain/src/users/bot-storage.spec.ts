import { assertAllKeysRemoved, assertStorageFits, entrySize, pickStoredEntries } from './bot-storage.js';

describe('assertStorageFits (Zulip’s set_bot_storage)', () => {
  it('allows exactly the limit', () => {
    expect(() => assertStorageFits({ total: 0, ofWrittenKeys: 0 }, [['capacity-filling entry', 'x'.repeat(78)]], 100)).not.toThrow();
  });

  it('reports by how much a request exceeds the limit (Zulip’s test_storage_limit)', () => {
    expect(() => assertStorageFits({ total: 100, ofWrittenKeys: 0 }, [['too much data', 'a few bits too long']], 100)).toThrow(
      'Request exceeds storage limit by 32 characters. The limit is 100 characters.',
    );
  });

  it('counts what a written key holds now as freed', () => {
    expect(() => assertStorageFits({ total: 100, ofWrittenKeys: 30 }, [['k', 'v'.repeat(29)]], 100)).not.toThrow();
    expect(() => assertStorageFits({ total: 100, ofWrittenKeys: 30 }, [['k', 'v'.repeat(30)]], 100)).toThrow('exceeds storage limit by 1 characters');
  });

  it('counts code points', () => {
    expect(entrySize('😀', '☃☃')).toBe(3);
  });
});

describe('pickStoredEntries', () => {
  const stored = new Map([
    ['key 1', 'value 1'],
    ['key 3', 'value 3'],
  ]);

  it('answers the keys named, in the order first named', () => {
    expect(pickStoredEntries(stored, ['key 3', 'key 1', 'key 3'])).toEqual([
      ['key 3', 'value 3'],
      ['key 1', 'value 1'],
    ]);
  });

  it('refuses a missing key', () => {
    expect(() => pickStoredEntries(stored, ['key 1', 'nonexistent key'])).toThrow('Key does not exist.');
  });
});

describe('assertAllKeysRemoved', () => {
  it('refuses when fewer rows went than keys were named (a missing or repeated key)', () => {
    expect(() => assertAllKeysRemoved(1, ['key 3', 'nonexistent key'])).toThrow('Key does not exist.');
    expect(() => assertAllKeysRemoved(1, ['a', 'a'])).toThrow('Key does not exist.');
    expect(() => assertAllKeysRemoved(2, ['a', 'b'])).not.toThrow();
    expect(() => assertAllKeysRemoved(0, [])).not.toThrow();
  });
});
