import { aMessage, editFacts, secondsAfter, T0 } from '../../test/builders.js';
import { isResolveNoticeMove, moveNotices, resolveNotice, undoesResolveNotice } from './move-notices.js';
import type { PropagateMode } from './message-edit.policy.js';
import { planTopicMove, propagatedIds, type TopicMove } from './topic-move.js';

const topic = [10, 20, 30, 40].map((id) => ({ id, dateSent: T0 }));

describe('propagation modes (spec 11 §1.3)', () => {
  it.each([
    ['change_one', 30, [30]],
    ['change_later', 30, [30, 40]],
    ['change_all', 30, [10, 20, 30, 40]],
    ['change_later', 10, [10, 20, 30, 40]],
  ] as [PropagateMode, number, number[]][])('%s from %i moves %j', (mode, target, ids) => {
    expect(propagatedIds(mode, target, topic)).toEqual(ids);
  });

  it('always moves the target, last when the mover could not see it in the topic', () => {
    expect(propagatedIds('change_all', 25, topic)).toEqual([10, 20, 30, 40, 25]);
    expect(propagatedIds('change_later', 25, topic)).toEqual([30, 40, 25]);
  });

  it('moves the whole topic through the aggregate only for change_all or the last messages', () => {
    const moveOf = (mode: PropagateMode, id: number) => {
      const m = aMessage({ id, dateSent: T0 });
      return m.edit(m.requestEdit({ topic: 'x', propagateMode: mode }, 60, editFacts().realm, T0), editFacts({ topicMessages: topic }), T0)!;
    };
    expect(moveOf('change_all', 30)).toMatchObject({ messageIds: [10, 20, 30, 40], wholeTopic: true });
    expect(moveOf('change_later', 10)).toMatchObject({ messageIds: [10, 20, 30, 40], wholeTopic: true });
    expect(moveOf('change_later', 30)).toMatchObject({ messageIds: [30, 40], wholeTopic: false });
    expect(moveOf('change_one', 30)).toMatchObject({ messageIds: [30], wholeTopic: false });
  });
});

const plan = (o: Partial<Parameters<typeof planTopicMove>[0]> = {}) =>
  planTopicMove(
    {
      target: { id: 30, dateSent: T0 },
      from: { channelId: 9, topic: 'lunch' },
      to: { channelId: 12, recipientId: 40, topic: 'dinner' },
      propagateMode: 'change_all',
      topicChanged: true,
      channelChanged: true,
      resolve: null,
      topicMessages: topic,
      moverIsModeratorOrAbove: false,
      limits: { topicSeconds: null, channelSeconds: null },
      historyEntry: { user_id: 60, timestamp: 1 },
      contentEdited: false,
      destinationTopicExisted: false,
      destinationHistoryProtected: true,
      ...o,
    },
    secondsAfter(T0, 10),
  );

describe('planTopicMove', () => {
  it('gives protected-history rows only when the channel changes', () => {
    expect(plan().destinationHistoryProtected).toBe(true);
    expect(plan({ channelChanged: false }).destinationHistoryProtected).toBe(false);
  });

  it('sets the moved time except for resolve toggles', () => {
    expect(plan().movedTime).toEqual(secondsAfter(T0, 10));
    expect(plan({ resolve: 'unresolve', channelChanged: false }).movedTime).toBeNull();
  });

  it('applies the smaller limit plus grace to every candidate', () => {
    const limits = { topicSeconds: 100, channelSeconds: 5 };
    expect(() => plan({ limits })).not.toThrow(); // 10 s old, deadline 25 s
    expect(() => plan({ limits: { topicSeconds: 100, channelSeconds: -11 } })).toThrow('You only have permission to move the 0/4 most recent messages in this topic.');
    expect(() => plan({ limits: { topicSeconds: -11, channelSeconds: null }, channelChanged: true, topicChanged: false })).not.toThrow(); // topic limit unused
  });
});

const move = (o: Partial<TopicMove> = {}): TopicMove => ({ ...plan(), ...o });
const mover = { id: 60, fullName: 'Cordelia' };
const channels = { mover, source: { id: 9, name: 'general' }, destination: { id: 12, name: 'dev team' }, notifyOldThread: true, notifyNewThread: true };

describe('move notices (spec 11 §1.6)', () => {
  it('tell both topics about a whole-topic move into a new topic', () => {
    expect(moveNotices(move(), channels)).toEqual([
      { channelId: 9, topic: 'lunch', content: 'This topic was moved to #**dev team>dinner** by @_**Cordelia|60**.' },
      { channelId: 12, topic: 'dinner', content: 'This topic was moved here from #**general>lunch** by @_**Cordelia|60**.' },
    ]);
  });

  it('count moved messages, link a single one, and name the empty topic', () => {
    const one = move({ messageIds: [30], wholeTopic: false, to: { channelId: 12, recipientId: 40, topic: '' } });
    expect(moveNotices(one, channels).map((n) => n.content)).toEqual([
      'A message was moved from this topic to #**dev team>general chat** by @_**Cordelia|60**.',
      '[A message](#narrow/channel/12-dev-team/topic//near/30) was moved here from #**general>lunch** by @_**Cordelia|60**.',
    ]);
    const two = move({ messageIds: [30, 40], wholeTopic: false });
    expect(moveNotices(two, channels).map((n) => n.content)).toEqual([
      '2 messages were moved from this topic to #**dev team>dinner** by @_**Cordelia|60**.',
      '2 messages were moved here from #**general>lunch** by @_**Cordelia|60**.',
    ]);
    expect(moveNotices(move({ destinationTopicExisted: true }), channels)[1].content).toBe('4 messages were moved here from #**general>lunch** by @_**Cordelia|60**.');
  });

  it('are posted only where asked, never in the new topic of a resolve toggle within a channel', () => {
    expect(moveNotices(move(), { ...channels, notifyOldThread: false }).map((n) => n.channelId)).toEqual([12]);
    expect(moveNotices(move(), { ...channels, notifyNewThread: false }).map((n) => n.channelId)).toEqual([9]);
    const resolvedAcross = move({ resolve: 'resolve' });
    expect(isResolveNoticeMove(resolvedAcross)).toBe(false);
    expect(moveNotices(resolvedAcross, { ...channels, notifyOldThread: false }).map((n) => n.channelId)).toEqual([12]);
  });

  it('encode the link as Zulip’s narrow hashes', () => {
    const one = move({ messageIds: [30], wholeTopic: false, to: { channelId: 12, recipientId: 40, topic: 'a.b c' } });
    expect(moveNotices(one, { ...channels, notifyOldThread: false })[0].content).toBe(
      '[A message](#narrow/channel/12-dev-team/topic/a.2Eb.20c/near/30) was moved here from #**general>lunch** by @_**Cordelia|60**.',
    );
  });
});

describe('resolve notices', () => {
  const toggle = move({ resolve: 'resolve', channelChanged: false, to: { channelId: 9, recipientId: 30, topic: '✔ lunch' } });
  it('say who resolved or unresolved, in the renamed topic', () => {
    expect(isResolveNoticeMove(toggle)).toBe(true);
    expect(resolveNotice(toggle, mover)).toEqual({ channelId: 9, topic: '✔ lunch', content: '@_**Cordelia|60** has marked this topic as resolved.' });
    expect(resolveNotice({ ...toggle, resolve: 'unresolve' }, mover).content).toBe('@_**Cordelia|60** has marked this topic as unresolved.');
  });

  it('are undone instead within 60 seconds of the bot’s last notice', () => {
    const last = { senderId: 5, content: '@_**Cordelia|60** has marked this topic as resolved.', dateSent: T0 };
    expect(undoesResolveNotice(last, 5, secondsAfter(T0, 59))).toBe(true);
    expect(undoesResolveNotice(last, 5, secondsAfter(T0, 60))).toBe(false);
    expect(undoesResolveNotice({ ...last, senderId: 60 }, 5, secondsAfter(T0, 1))).toBe(false);
    expect(undoesResolveNotice({ ...last, content: 'lunch?' }, 5, secondsAfter(T0, 1))).toBe(false);
    expect(undoesResolveNotice(null, 5, T0)).toBe(false);
  });
});
