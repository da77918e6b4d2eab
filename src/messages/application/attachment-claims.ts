import { referencedUploadPaths } from '@app/domain/messages';
import type { Actor } from '@app/domain/users';
import type { Tx } from '../../shared/application/unit-of-work.js';
import { readableAttachments } from './attachment-access.js';
import { attachmentEvent, presentAttachment } from './attachments.views.js';
import type { AttachmentRecord } from './message.ports.js';

/**
 * Uploads the content links to that the sender may reference (Zulip's do_claim_attachments):
 * its own, or ones linked from a message the sender can read. Other paths stay text.
 */
export async function claimableAttachments(tx: Tx, actor: Actor, content: string): Promise<number[]> {
  const paths = referencedUploadPaths(content);
  if (paths.length === 0) return [];
  const found = await tx.attachments.byPaths(actor.realmId, paths);
  return (await readableAttachments(tx, actor, found)).map((a) => a.id);
}

/**
 * Links uploads to a message the actor sent (Zulip's do_claim_attachments): each claimed
 * attachment gets an `attachment` `update` event for the sender, with its new message_ids.
 */
export async function claimAttachments(tx: Tx, actor: Actor, messageId: number, attachmentIds: readonly number[]): Promise<void> {
  if (attachmentIds.length === 0) return;
  await tx.attachments.link(messageId, attachmentIds);
  const claimed = await tx.attachments.byIds(actor.realmId, attachmentIds);
  const used = await tx.attachments.usedSpace(actor.realmId);
  tx.afterCommit(claimed.map((a) => attachmentEvent(actor.realmId, actor.userId, 'update', presentAttachment(a), used)));
}

/**
 * Relinks an edited message's uploads (spec 11 §1.8): unlinks those no longer referenced,
 * claims the new ones; returns the editor's uploads that no message references any more.
 */
export async function relinkAttachments(tx: Tx, actor: Actor, messageId: number, content: string): Promise<AttachmentRecord[]> {
  const before = await tx.attachments.ofMessage(messageId);
  const referenced = new Set(referencedUploadPaths(content));
  const unlinked = before.filter((a) => !referenced.has(a.pathId));
  await tx.attachments.unlink(messageId, unlinked.map((a) => a.id));
  const linkedBefore = new Set(before.map((a) => a.id));
  const added = (await claimableAttachments(tx, actor, content)).filter((id) => !linkedBefore.has(id));
  await claimAttachments(tx, actor, messageId, added);
  const after = await tx.attachments.byPaths(actor.realmId, unlinked.map((a) => a.pathId));
  return after.filter((a) => a.ownerId === actor.userId && a.messageIds.length === 0);
}
