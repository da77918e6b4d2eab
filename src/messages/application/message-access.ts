import { type Channel, hasContentAccess, type Viewer } from '@app/domain/channels';
import type { MessageRecord } from './message.ports.js';

/**
 * Can the viewer read this message (spec 10 §5)? Direct messages: participants (a per-user
 * row). Channel messages: content access to the channel, and for protected history a row.
 * `forModification`: messages in archived channels are out of reach.
 */
export function canAccessMessage(
  m: MessageRecord,
  hasRow: boolean,
  channel: Channel | null,
  viewer: Viewer,
  subscribed: boolean,
  forModification: boolean,
): boolean {
  if (m.channelId === null) return hasRow;
  if (channel === null) return false;
  if (forModification && channel.isArchived) return false;
  if (!hasContentAccess(channel, viewer, subscribed)) return false;
  return channel.snapshot().historyPublicToSubscribers || hasRow;
}
