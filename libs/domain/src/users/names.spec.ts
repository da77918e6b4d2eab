import { checkFullName, checkShortName } from './names.js';

describe('checkFullName', () => {
  it('strips and accepts ordinary names, one character included', () => {
    expect(checkFullName('  Ada Lovelace ')).toBe('Ada Lovelace');
    expect(checkFullName('A')).toBe('A');
  });
  it.each([
    ['', 'Name must not be empty!'],
    ['   ', 'Name must not be empty!'],
    ['x'.repeat(101), 'Name too long!'],
    ['Ada*', 'Invalid characters in name!'],
    ['a@b', 'Invalid characters in name!'],
    ['tab\tname', 'Invalid characters in name!'],
    ['iago|72', 'Invalid format!'],
  ])('%j → %s', (raw, msg) => {
    expect(() => checkFullName(raw)).toThrow(msg);
  });
  it('counts code points, not UTF-16 units', () => {
    expect(checkFullName('😀'.repeat(100))).toHaveLength(200);
    expect(() => checkFullName('😀'.repeat(101))).toThrow('Name too long!');
  });
  it('allows a pipe followed by letters', () => {
    expect(checkFullName('Hello- 12iago|72k')).toBe('Hello- 12iago|72k');
  });
});

describe('checkShortName', () => {
  it('rejects blank names', () => {
    expect(() => checkShortName('  ')).toThrow('Bad name or username');
    expect(checkShortName(' hook ')).toBe('hook');
  });
});
