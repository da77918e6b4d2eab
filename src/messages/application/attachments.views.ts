import type { ClientEvent } from '../../shared/application/client-event.js';
import type { AttachmentRecord } from './message.ports.js';

/**
 * An attachment as Zulip's Attachment.to_dict shows it at feature level 472: `create_time` in
 * seconds (level 443) and `message_ids` in place of the older `messages` list (level 472).
 */
export function presentAttachment(a: AttachmentRecord) {
  return {
    id: a.id,
    name: a.name,
    path_id: a.pathId,
    size: a.size,
    create_time: Math.floor(a.createTime.getTime() / 1000),
    message_ids: a.messageIds,
  };
}

/**
 * Zulip's notify_attachment_update: `add` on upload, `update` when a message claims it, `remove`
 * (with only the id) on deletion, each with the organization's used upload space; for one user.
 */
export function attachmentEvent(
  realmId: number,
  userId: number,
  op: 'add' | 'update' | 'remove',
  attachment: ReturnType<typeof presentAttachment> | { id: number },
  uploadSpaceUsed: number,
): ClientEvent {
  return { realmId, userIds: [userId], event: { type: 'attachment', op, attachment, upload_space_used: uploadSpaceUsed } };
}
