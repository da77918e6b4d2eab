import { assertChannelsExist, assertModerationChannelPrivate, channelSettingValue, realmChannelSettingChanges } from './announcement-channels.js';

const none = { moderationRequestChannelId: null, newStreamAnnouncementsStreamId: 3, signupAnnouncementsStreamId: null, updateAnnouncementsStreamId: null };

describe('the organization’s channel settings', () => {
  it('changes what differs, keeps the value as sent, and disables with any negative value', () => {
    expect(realmChannelSettingChanges(none, { newStreamAnnouncementsStreamId: 3 })).toEqual([]);
    expect(realmChannelSettingChanges(none, { newStreamAnnouncementsStreamId: -5, signupAnnouncementsStreamId: 7 })).toEqual([
      { key: 'newStreamAnnouncementsStreamId', sent: -5, channelId: null },
      { key: 'signupAnnouncementsStreamId', sent: 7, channelId: 7 },
    ]);
    // Disabling a disabled setting is set again (Zulip announces it again).
    expect(realmChannelSettingChanges(none, { moderationRequestChannelId: -1 })).toEqual([{ key: 'moderationRequestChannelId', sent: -1, channelId: null }]);
  });

  it('requires named channels to exist', () => {
    const changes = realmChannelSettingChanges(none, { signupAnnouncementsStreamId: 7 });
    expect(() => assertChannelsExist(changes, new Set([7]))).not.toThrow();
    expect(() => assertChannelsExist(changes, new Set())).toThrow('Invalid channel ID');
    expect(channelSettingValue(null)).toBe(-1);
    expect(channelSettingValue(8)).toBe(8);
  });
});

describe('the moderation request channel', () => {
  it('must be private; other settings may name public channels', () => {
    const publicIds = new Set([4]);
    expect(() => assertModerationChannelPrivate([{ key: 'moderationRequestChannelId', sent: 4, channelId: 4 }], publicIds)).toThrow('Moderation request channel must be private.');
    expect(() => assertModerationChannelPrivate([{ key: 'moderationRequestChannelId', sent: 5, channelId: 5 }], publicIds)).not.toThrow();
    expect(() => assertModerationChannelPrivate([{ key: 'moderationRequestChannelId', sent: -1, channelId: null }], publicIds)).not.toThrow();
    expect(() => assertModerationChannelPrivate([{ key: 'newStreamAnnouncementsStreamId', sent: 4, channelId: 4 }], publicIds)).not.toThrow();
  });
});
