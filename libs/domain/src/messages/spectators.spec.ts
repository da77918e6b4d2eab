import { checkSpectatorFetch, spectatorsAllowed } from './spectators.js';

const term = (operator: string, operand: unknown, negated = false) => ({ operator, operand, negated });
const WEB_PUBLIC = term('channels', 'web-public');

describe('spectators', () => {
  it('are allowed only with the server switch, spectator access and a web-public channel', () => {
    expect(spectatorsAllowed({ enableSpectatorAccess: true, hasWebPublicChannels: true }, true)).toBe(true);
    expect(spectatorsAllowed({ enableSpectatorAccess: true, hasWebPublicChannels: true }, false)).toBe(false);
    expect(spectatorsAllowed({ enableSpectatorAccess: false, hasWebPublicChannels: true }, true)).toBe(false);
    expect(spectatorsAllowed({ enableSpectatorAccess: true, hasWebPublicChannels: false }, true)).toBe(false);
  });

  it('fetch with channels:web-public (or the legacy streams:web-public) and spectator operators only', () => {
    expect(() => checkSpectatorFetch(true, [WEB_PUBLIC])).not.toThrow();
    expect(() => checkSpectatorFetch(true, [term('streams', 'web-public'), term('channel', 'x'), term('topic', 't'), term('search', 's')])).not.toThrow();
    expect(() => checkSpectatorFetch(true, [WEB_PUBLIC, term('sender', 3), term('has', 'link'), term('near', 5), term('id', 5)])).not.toThrow();
  });

  it.each([
    ['spectators not allowed', false, [WEB_PUBLIC]],
    ['no narrow', true, []],
    ['a channel without channels:web-public', true, [term('channel', 'x')]],
    ['a negated channels:web-public', true, [term('channels', 'web-public', true)]],
    ['channels:public', true, [term('channels', 'public')]],
    ['is:dm', true, [WEB_PUBLIC, term('is', 'dm')]],
    ['a direct-message narrow', true, [WEB_PUBLIC, term('dm', [1])]],
    ['is:starred', true, [WEB_PUBLIC, term('is', 'starred')]],
  ])('refuse %s as not logged in', (_name, allowed, narrow) => {
    expect(() => checkSpectatorFetch(allowed as boolean, narrow as never)).toThrow(
      expect.objectContaining({ message: 'Not logged in: API authentication or user session required', code: 'UNAUTHORIZED' }),
    );
  });
});
