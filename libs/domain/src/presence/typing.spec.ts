import { aTypingRequest } from '../../test/builders.js';
import {
  assertCanSendEditTyping,
  assertTypingUsersExist,
  channelTypingAudience,
  editTypingConversation,
  MAX_CHANNEL_SIZE_FOR_TYPING,
  planTyping,
  typingTopic,
} from './typing.js';

const ON = { sendPrivate: true, sendStream: true };
const SENDER = 60;

describe('planning a direct typing notification', () => {
  it('adds the sender to the conversation when absent, keeping the request order', () => {
    expect(planTyping(aTypingRequest({ to: [62, 61] }), SENDER, ON)).toEqual({ kind: 'direct', userIds: [62, 61, 60] });
    expect(planTyping(aTypingRequest({ to: [61, 60] }), SENDER, ON)).toEqual({ kind: 'direct', userIds: [61, 60] });
    expect(planTyping(aTypingRequest({ to: [60] }), SENDER, ON)).toEqual({ kind: 'direct', userIds: [60] });
  });

  it('needs a non-empty `to`, checked before the sender setting', () => {
    const off = { ...ON, sendPrivate: false };
    expect(() => planTyping(aTypingRequest({ to: null }), SENDER, off)).toThrow("Missing 'to' argument");
    expect(() => planTyping(aTypingRequest({ to: [] }), SENDER, off)).toThrow("Empty 'to' list");
    expect(() => planTyping(aTypingRequest(), SENDER, off)).toThrow('User has disabled typing notifications for direct messages');
    expect(() => planTyping(aTypingRequest(), SENDER, { ...ON, sendStream: false })).not.toThrow();
  });
});

describe('planning a channel typing notification', () => {
  const toChannel = (o = {}) => aTypingRequest({ type: 'channel', to: null, channelId: 5, topic: 'lunch', ...o });

  it('takes "stream" and "channel" alike', () => {
    expect(planTyping(toChannel(), SENDER, ON)).toEqual({ kind: 'channel', channelId: 5, topic: 'lunch' });
    expect(planTyping(toChannel({ type: 'stream', to: [61] }), SENDER, ON)).toEqual({ kind: 'channel', channelId: 5, topic: 'lunch' });
  });

  it('needs stream_id, then topic, then the sender setting', () => {
    const off = { ...ON, sendStream: false };
    expect(() => planTyping(toChannel({ channelId: null, topic: null }), SENDER, off)).toThrow("Missing 'stream_id' argument");
    expect(() => planTyping(toChannel({ topic: null }), SENDER, off)).toThrow('Missing topic');
    expect(() => planTyping(toChannel(), SENDER, off)).toThrow('User has disabled typing notifications for channel messages');
    expect(() => planTyping(toChannel(), SENDER, { ...ON, sendPrivate: false })).not.toThrow();
  });

  it('reads the display names of the empty topic as the empty topic', () => {
    expect(typingTopic('general chat')).toBe('');
    expect(typingTopic('(no topic)')).toBe('');
    expect(typingTopic('General chat')).toBe('General chat');
    expect(planTyping(toChannel({ topic: '' }), SENDER, ON)).toEqual({ kind: 'channel', channelId: 5, topic: '' });
  });
});

describe('who a typing notification reaches', () => {
  it('refuses the first unknown user ID of the conversation', () => {
    expect(() => assertTypingUsersExist([61, 99, 98, 60], new Set([60, 61]))).toThrow('Invalid user ID 99');
    expect(() => assertTypingUsersExist([61, 60], new Set([60, 61]))).not.toThrow();
  });

  it('reaches nobody in a channel with more than 100 subscribers', () => {
    const ids = (n: number) => Array.from({ length: n }, (_, i) => i + 1);
    expect(channelTypingAudience(ids(MAX_CHANNEL_SIZE_FOR_TYPING))).toHaveLength(100);
    expect(channelTypingAudience(ids(MAX_CHANNEL_SIZE_FOR_TYPING + 1))).toEqual([]);
  });
});

describe('typing notifications for a message edit', () => {
  it('needs the sender setting for the message kind', () => {
    expect(() => assertCanSendEditTyping(true, { ...ON, sendStream: false })).toThrow('User has disabled typing notifications for channel messages');
    expect(() => assertCanSendEditTyping(false, { ...ON, sendPrivate: false })).toThrow('User has disabled typing notifications for direct messages');
    expect(() => assertCanSendEditTyping(true, { ...ON, sendPrivate: false })).not.toThrow();
    expect(() => assertCanSendEditTyping(false, { ...ON, sendStream: false })).not.toThrow();
  });

  it('lists a one-to-one conversation editor first, a group conversation ascending', () => {
    expect(editTypingConversation(60, [12, 60])).toEqual([60, 12]);
    expect(editTypingConversation(60, [60])).toEqual([60, 60]);
    expect(editTypingConversation(60, [70, 12, 60])).toEqual([12, 60, 70]);
  });
});
