import { aScheduledMessage, secondsAfter, T0 } from '../../test/builders.js';
import {
  checkScheduledMessageEdit,
  failedScheduledMessageNotice,
  globalTime,
  lateDeliveryError,
  legacyScheduledType,
  ScheduledMessage,
  scheduledReadBySender,
  scheduledRecipients,
  shownDirectRecipients,
} from './scheduled-message.js';

const OWNER = 10;
const inVerona = { kind: 'channel' as const, channelId: 3, topic: 'lunch' };
const scheduled = (target: ScheduledMessage['target'] = inVerona) => aScheduledMessage({ target });

describe('scheduled message types and recipients', () => {
  it('keeps Zulip’s legacy type names', () => {
    expect(['direct', 'private', 'channel', 'stream'].map((t) => legacyScheduledType(t as 'direct'))).toEqual(['private', 'private', 'stream', 'stream']);
  });
  it('takes one channel id for a channel message, a list of user ids for a direct one', () => {
    expect(scheduledRecipients('stream', 9)).toEqual([9]);
    expect(() => scheduledRecipients('stream', [9])).toThrow('Invalid data type for channel ID');
    expect(() => scheduledRecipients('stream', [])).toThrow('Invalid data type for channel ID');
    expect(scheduledRecipients('private', [12, 4, 12])).toEqual([4, 12]);
    expect(scheduledRecipients('private', [])).toEqual([]);
    expect(() => scheduledRecipients('private', 4)).toThrow('Invalid data type for recipients');
  });
  it('shows the other participants, or the owner alone', () => {
    expect(shownDirectRecipients(OWNER, [OWNER, 12, 4])).toEqual([4, 12]);
    expect(shownDirectRecipients(OWNER, [OWNER])).toEqual([OWNER]);
    expect(shownDirectRecipients(OWNER, [12, OWNER])).toEqual([12]);
  });
});

describe('checkScheduledMessageEdit', () => {
  it('wants something to change', () => {
    expect(() => checkScheduledMessageEdit({})).toThrow('Nothing to change');
    expect(checkScheduledMessageEdit({ topic: '' })).toBeNull();
    expect(checkScheduledMessageEdit({ content: 'x' })).toBeNull();
    expect(checkScheduledMessageEdit({ to: [1] })).toBeNull();
    expect(checkScheduledMessageEdit({ scheduledDeliveryTimestamp: 1 })).toBeNull();
  });
  it('needs recipients with a new type, and a topic with a channel type', () => {
    expect(() => checkScheduledMessageEdit({ type: 'direct' })).toThrow('Recipient required when updating type of scheduled message.');
    expect(() => checkScheduledMessageEdit({ type: 'channel', topic: 'x' })).toThrow('Recipient required when updating type of scheduled message.');
    expect(() => checkScheduledMessageEdit({ type: 'channel', to: 3 })).toThrow('Topic required when updating scheduled message type to channel.');
    expect(() => checkScheduledMessageEdit({ type: 'stream', to: 3 })).toThrow('Topic required when updating scheduled message type to channel.');
    expect(checkScheduledMessageEdit({ type: 'stream', to: 3, topic: '' })).toBe('stream');
    expect(checkScheduledMessageEdit({ type: 'direct', to: [4] })).toBe('private');
    expect(checkScheduledMessageEdit({ type: 'private', to: [4] })).toBe('private');
  });
});

describe('read_by_sender', () => {
  it('follows the parameter, else the client, never for a message to oneself alone', () => {
    expect(scheduledReadBySender(false, true, false)).toBe(false);
    expect(scheduledReadBySender(true, false, true)).toBe(true);
    expect(scheduledReadBySender(undefined, true, false)).toBe(true);
    expect(scheduledReadBySender(undefined, true, true)).toBe(false);
    expect(scheduledReadBySender(undefined, false, false)).toBe(false);
  });
});

describe('late delivery', () => {
  it('is allowed up to ten minutes after the scheduled time', () => {
    expect(lateDeliveryError(T0, T0)).toBeNull();
    expect(lateDeliveryError(T0, secondsAfter(T0, 600))).toBeNull();
    expect(lateDeliveryError(T0, secondsAfter(T0, 601))?.msg).toBe('Message could not be sent at the scheduled time.');
  });
});

describe('the failure notice', () => {
  it('names the time as a global time and quotes the error', () => {
    expect(globalTime(new Date('2026-01-01T12:00:00.999Z'))).toBe('<time:2026-01-01T12:00:00+00:00>');
    expect(failedScheduledMessageNotice(T0, 'Not allowed')).toBe(
      'The message you scheduled for <time:2026-01-01T12:00:00+00:00> was not sent because of the following error:\n\n> Not allowed\n\n[View scheduled messages](#scheduled)',
    );
  });
});

describe('ScheduledMessage', () => {
  it('starts pending, with what the sending rules checked', () => {
    const m = ScheduledMessage.create(OWNER, { content: 'hi', renderedContent: '<p>hi</p>', target: inVerona }, { sendingClient: 'website', readBySender: true, scheduledAt: secondsAfter(T0, 3600) });
    expect(m.withId(7).snapshot()).toEqual(aScheduledMessage().snapshot());
    expect(m.id).toBe(0);
  });

  it('shows a channel message with its topic, a direct one with its recipients', () => {
    expect(scheduled().view()).toEqual({
      id: 7,
      type: 'stream',
      to: 3,
      topic: 'lunch',
      content: 'hi',
      renderedContent: '<p>hi</p>',
      scheduledAt: secondsAfter(T0, 3600),
      failed: false,
    });
    const dm = scheduled({ kind: 'direct', participantIds: [OWNER, 4] }).view();
    expect(dm).toMatchObject({ type: 'private', to: [4] });
    expect(dm).not.toHaveProperty('topic');
  });

  it('cannot change once sent; a failed one needs a new time, and is pending again after the edit', () => {
    const sent = scheduled();
    sent.markDelivered(99);
    expect(() => sent.assertEditable(T0)).toThrow('Scheduled message was already sent');
    expect(sent.snapshot()).toMatchObject({ delivered: true, deliveredMessageId: 99 });

    const failed = scheduled();
    failed.markFailed('Oops');
    expect(failed.view().failed).toBe(true);
    expect(() => failed.assertEditable(null)).toThrow('Scheduled delivery time must be in the future.');
    failed.assertEditable(T0);
    failed.edit({ scheduledAt: secondsAfter(T0, 60), sendingClient: 'ZulipMobile' });
    expect(failed.snapshot()).toMatchObject({ failed: false, failureMessage: null, sendingClient: 'ZulipMobile', scheduledAt: secondsAfter(T0, 60) });
  });

  it('changes the topic of a channel message only, or takes a new target and content', () => {
    const m = scheduled();
    m.edit({ topic: 'dinner', sendingClient: 'website' });
    expect(m.target).toEqual({ ...inVerona, topic: 'dinner' });
    m.edit({ target: { kind: 'direct', participantIds: [OWNER, 5] }, sendingClient: 'website' });
    m.edit({ topic: 'ignored', content: { content: 'new', renderedContent: '<p>new</p>' }, sendingClient: 'website' });
    expect(m.view()).toMatchObject({ type: 'private', to: [5], content: 'new', renderedContent: '<p>new</p>' });
    expect(m.view()).not.toHaveProperty('topic');
  });
});
