import { checkClientCompatibility, findMobileOs, parseUserAgent, versionLt } from './client-compatibility.js';

describe('parseUserAgent', () => {
  it.each([
    ['ZulipMobile/26.22.145 (Android 10)', 'ZulipMobile', '26.22.145'],
    ['ZulipInvalid', 'ZulipInvalid', null],
    ['ZulipElectron/5.9.3 Mozilla/5.0', 'ZulipElectron', '5.9.3'],
    ['Mozilla/5.0 (X11; Linux x86_64)', 'Mozilla', '5.0'],
    ['python-requests/2.31', 'python-requests', '2.31'],
    ['', '', null],
  ])('%j → %s %s', (ua, name, version) => {
    expect(parseUserAgent(ua)).toEqual({ name, version });
  });
});

describe('versionLt (Zulip’s version_lt)', () => {
  it.each([
    ['16.2.95', '16.2.96', true],
    ['16.2.96', '16.2.96', false],
    ['16.3', '16.2.96', false],
    ['16.2', '16.2.96', true],
    ['16.2.96.1', '16.2.96', false],
    ['16.2.96-beta', '16.2.96', null],
    ['16.2-beta', '16.2.96', null],
    ['abc', '16.2.96', null],
    ['27.192', '16.2.96', false],
  ])('%s < %s → %s', (a, b, lt) => {
    expect(versionLt(a, b)).toBe(lt);
  });
});

describe('findMobileOs', () => {
  it('tells Android from iOS', () => {
    expect(findMobileOs('ZulipMobile/1.0 (Android 9)')).toBe('android');
    expect(findMobileOs('ZulipMobile/1.0 (iPhone OS 16.0)')).toBe('ios');
    expect(findMobileOs('ZulipMobile/1.0 (iOS 17)')).toBe('ios');
    expect(findMobileOs('ZulipMobile/1.0')).toBeNull();
  });
});

describe('checkClientCompatibility', () => {
  it('refuses a missing User-Agent, ZulipInvalid and old Android apps', () => {
    expect(() => checkClientCompatibility(undefined)).toThrow('User-Agent header missing from request');
    expect(() => checkClientCompatibility('ZulipInvalid')).toThrow('Client is too old');
    expect(() => checkClientCompatibility('ZulipMobile/16.2.95 (Android 8.0)')).toThrow('Client is too old');
  });
  it('accepts everything else', () => {
    for (const ua of ['', 'ZulipMobile/16.2.96 (Android 8.0)', 'ZulipMobile/1.0 (iOS 12)', 'ZulipMobile/beta (Android 8)', 'Mozilla/5.0', 'ZulipMobile']) {
      expect(() => checkClientCompatibility(ua)).not.toThrow();
    }
  });
});
