import { pairKey } from '@app/domain/channels';
import type { Actor } from '@app/domain/users';
import type { Tx } from '../../shared/application/unit-of-work.js';
import { loadActorContext } from '../../users/index.js';
import { canAccessMessage, viewerOf } from './message-access.js';
import type { AttachmentRecord } from './message.ports.js';

/**
 * Of these uploads of the actor's organization, the ones the actor may read (Zulip's
 * validate_attachment_request): its own, or one linked from a message the actor can read.
 * Reading another user's upload therefore needs such a message; the upload's path alone grants
 * nothing. A constant number of statements, whatever the number of uploads and messages.
 */
export async function readableAttachments(tx: Tx, actor: Actor, attachments: readonly AttachmentRecord[]): Promise<AttachmentRecord[]> {
  const foreign = attachments.filter((a) => a.ownerId !== actor.userId && a.messageIds.length > 0);
  if (foreign.length === 0) return attachments.filter((a) => a.ownerId === actor.userId);
  const messageIds = [...new Set(foreign.flatMap((a) => a.messageIds))];
  const messages = await tx.messages.findMany(actor.realmId, messageIds);
  const rows = await tx.userMessages.existingFlags(actor.userId, messageIds);
  const channelIds = [...new Set([...messages.values()].flatMap((m) => (m.channelId === null ? [] : [m.channelId])))];
  const channels = new Map((await tx.channels.findByIds(actor.realmId, channelIds)).map((c) => [c.id, c]));
  const subscriptions = channelIds.length === 0 ? new Map() : await tx.subscriptions.records([actor.userId], channelIds);
  const viewer = viewerOf(actor, await loadActorContext(tx, actor));
  const readable = new Set<number>();
  for (const m of messages.values()) {
    const channel = m.channelId === null ? null : (channels.get(m.channelId) ?? null);
    const subscribed = m.channelId !== null && subscriptions.get(pairKey(actor.userId, m.channelId))?.active === true;
    if (canAccessMessage(m, rows.has(m.id), channel, viewer, subscribed, false)) readable.add(m.id);
  }
  return attachments.filter((a) => a.ownerId === actor.userId || a.messageIds.some((id) => readable.has(id)));
}
