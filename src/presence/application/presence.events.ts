import type { ShownPresence, TypingOp } from '@app/domain/presence';
import type { ClientEvent } from '../../shared/application/client-event.js';
import { presentLegacyClientPresence, presentModernPresence } from './presence.views.js';

/**
 * A user came online (or turned presence on or off): every active user of the organization
 * hears it. The journal keeps both formats; each queue gets the one its client asked for
 * (Zulip's process_presence_event: modern with simplified_presence_events, else legacy, without
 * `email` for slim_presence queues).
 */
export function presenceEvent(realmId: number, user: { id: number; email: string }, p: ShownPresence, now: Date): ClientEvent {
  return {
    realmId,
    event: {
      type: 'presence',
      user_id: user.id,
      email: user.email,
      server_timestamp: now.getTime() / 1000,
      legacy_presence: { website: presentLegacyClientPresence(p) },
      modern_presence: presentModernPresence(p),
    },
    userIds: [],
    everyone: true,
  };
}

type Person = { id: number; email: string };
const person = (u: Person) => ({ user_id: u.id, email: u.email });

/** A direct-message typing notification: every participant (sender included) is listed. */
export function directTypingEvent(realmId: number, op: TypingOp, sender: Person, participants: readonly Person[], notify: readonly number[]): ClientEvent {
  return {
    realmId,
    event: { type: 'typing', message_type: 'direct', op, sender: person(sender), recipients: participants.map(person) },
    userIds: notify,
  };
}

/** A channel typing notification, for the subscribers' clients that declared stream_typing_notifications. */
export function channelTypingEvent(realmId: number, op: TypingOp, sender: Person, channelId: number, topic: string, notify: readonly number[]): ClientEvent {
  return {
    realmId,
    event: { type: 'typing', message_type: 'stream', op, sender: person(sender), stream_id: channelId, topic },
    userIds: notify,
  };
}

/**
 * Zulip's typing_edit_message event: someone is editing a message. `recipient` is the channel
 * and topic, or the conversation's users who are told (as Zulip lists them).
 */
export function editTypingEvent(
  realmId: number,
  op: TypingOp,
  senderId: number,
  messageId: number,
  recipient: { type: 'channel'; channel_id: number; topic: string } | { type: 'direct'; user_ids: number[] },
  notify: readonly number[],
): ClientEvent {
  return {
    realmId,
    event: { type: 'typing_edit_message', op, sender_id: senderId, message_id: messageId, recipient },
    userIds: [...new Set(notify)],
  };
}
