import { FLAG_BITS } from './flags.js';
import { type MuteState, type UnreadRow, UNREADS_CAP, unreadSummary } from './unreads.js';

const ME = 10;
const none: MuteState = { mutedChannels: new Set(), topicPolicies: new Map() };
const channel = (id: number, channelId: number, topic: string, flags = 0): UnreadRow => ({ id, flags, channelId, topic, participants: null, senderId: 1 });
const dm = (id: number, participants: number[], flags = 0): UnreadRow => ({ id, flags, channelId: null, topic: '', participants, senderId: participants[0] });

describe('unread_msgs', () => {
  it('groups DMs by the other user, group DMs by all participants, channel messages by topic case-insensitively', () => {
    const s = unreadSummary(
      ME,
      [dm(1, [3, ME]), dm(2, [ME]), dm(3, [3, 4, ME]), channel(4, 7, 'Lunch'), channel(5, 7, 'lunch'), channel(6, 2, 'b'), dm(7, [3, ME])],
      none,
    );
    expect(s.pms).toEqual([
      { other_user_id: 3, sender_id: 3, unread_message_ids: [1, 7] },
      { other_user_id: ME, sender_id: ME, unread_message_ids: [2] },
    ]);
    expect(s.huddles).toEqual([{ user_ids_string: `3,4,${ME}`, unread_message_ids: [3] }]);
    expect(s.streams).toEqual([
      { stream_id: 2, topic: 'b', unread_message_ids: [6] },
      { stream_id: 7, topic: 'Lunch', unread_message_ids: [4, 5] },
    ]);
    expect(s.count).toBe(7);
    expect(s.old_unreads_missing).toBe(false);
  });

  it('leaves muted conversations out of the count, and their wildcard mentions out of mentions', () => {
    const mutes: MuteState = { mutedChannels: new Set([7]), topicPolicies: new Map([['7:followed', 3], ['2:quiet', 1]]) };
    const s = unreadSummary(
      ME,
      [
        channel(1, 7, 'anything', FLAG_BITS.stream_wildcard_mentioned),
        channel(2, 7, 'Followed'),
        channel(3, 2, 'quiet', FLAG_BITS.mentioned),
        channel(4, 2, 'loud', FLAG_BITS.topic_wildcard_mentioned),
      ],
      mutes,
    );
    expect(s.count).toBe(2); // 'Followed' in the muted channel, and 'loud'
    expect(s.mentions).toEqual([3, 4]); // direct mentions count even when muted
  });

  it('says when the cap cut the list', () => {
    const rows = Array.from({ length: UNREADS_CAP + 1 }, (_, i) => channel(i + 1, 1, 't'));
    const s = unreadSummary(ME, rows, none);
    expect(s.old_unreads_missing).toBe(true);
    expect(s.streams[0].unread_message_ids).toHaveLength(UNREADS_CAP);
  });
});
