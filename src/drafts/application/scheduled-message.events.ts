import type { ScheduledMessage } from '@app/domain/drafts';
import type { ClientEvent } from '../../shared/application/client-event.js';
import { presentScheduledMessage } from './draft.views.js';

/** `scheduled_messages` events (add, update, remove): only the owner's clients hear of them. */
export function scheduledMessagesEvent(realmId: number, ownerId: number, event: Record<string, unknown>): ClientEvent {
  return { realmId, event: { type: 'scheduled_messages', ...event }, userIds: [ownerId] };
}

export const scheduledMessageUpdated = (realmId: number, m: ScheduledMessage): ClientEvent =>
  scheduledMessagesEvent(realmId, m.ownerId, { op: 'update', scheduled_message: presentScheduledMessage(m.view()) });
