import { referencedUploadPaths } from '@app/domain/messages';
import type { Actor } from '@app/domain/users';
import type { Tx } from '../../shared/application/unit-of-work.js';
import type { AttachmentRecord } from './message.ports.js';

/** Uploads the content links to that the sender owns (or can already see through a message). */
export async function claimableAttachments(tx: Tx, actor: Actor, content: string): Promise<number[]> {
  const paths = referencedUploadPaths(content);
  if (paths.length === 0) return [];
  const found = await tx.attachments.byPaths(actor.realmId, paths);
  return found.filter((a) => a.ownerId === actor.userId || a.messageIds.length > 0).map((a) => a.id);
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
  await tx.attachments.link(messageId, await claimableAttachments(tx, actor, content));
  const after = await tx.attachments.byPaths(actor.realmId, unlinked.map((a) => a.pathId));
  return after.filter((a) => a.ownerId === actor.userId && a.messageIds.length === 0);
}
