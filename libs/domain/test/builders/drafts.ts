import { ScheduledMessage, type ScheduledMessageState } from '../../src/drafts/scheduled-message.js';
import { secondsAfter, T0 } from './common.js';

/** A pending scheduled message (id 7) of user 10 to Verona (channel 3) > lunch, due an hour after T0. */
export function aScheduledMessage(o: Partial<ScheduledMessageState> = {}): ScheduledMessage {
  return ScheduledMessage.restore({
    id: 7,
    ownerId: 10,
    target: { kind: 'channel', channelId: 3, topic: 'lunch' },
    content: 'hi',
    renderedContent: '<p>hi</p>',
    sendingClient: 'website',
    readBySender: true,
    scheduledAt: secondsAfter(T0, 3600),
    delivered: false,
    deliveredMessageId: null,
    failed: false,
    failureMessage: null,
    ...o,
  });
}
