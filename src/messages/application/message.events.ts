import { flagsToApi, isMeMessage } from '@app/domain/messages';
import { EMPTY_TOPIC_DISPLAY_NAME } from '@app/domain/realm';
import type { ClientEvent } from '../../shared/application/client-event.js';
import { gravatarUrl } from '../../users/index.js';

export interface MessageEventInput {
  realmId: number;
  realmStringId: string;
  id: number;
  sender: { id: number; email: string; fullName: string; avatarVersion: number };
  channel: { id: number; name: string; public: boolean } | null;
  participants: { id: number; email: string; fullName: string }[];
  recipientId: number;
  topic: string;
  content: string;
  renderedContent: string;
  dateSent: Date;
  client: string;
  /** Each recipient's flags bitmask, as written. */
  rows: readonly { userId: number; flags: number }[];
  localEcho?: { queueId: string; localId: string };
}

/**
 * The `message` event (spec 30 §7.1). The message carries both renderings (`__raw`) and the
 * raw topic (`__topic`); each queue picks what its client asked for.
 */
export function messageEvent(m: MessageEventInput): ClientEvent {
  const message: Record<string, unknown> = {
    id: m.id,
    sender_id: m.sender.id,
    content: m.renderedContent,
    __raw: m.content,
    __topic: m.topic,
    recipient_id: m.recipientId,
    timestamp: Math.floor(m.dateSent.getTime() / 1000),
    client: m.client,
    subject: m.channel ? (m.topic === '' ? EMPTY_TOPIC_DISPLAY_NAME : m.topic) : '',
    topic_links: [],
    is_me_message: isMeMessage(m.content),
    reactions: [],
    submessages: [],
    sender_full_name: m.sender.fullName,
    sender_email: m.sender.email,
    sender_realm_str: m.realmStringId,
    display_recipient: m.channel
      ? m.channel.name
      : m.participants.map((u) => ({ id: u.id, email: u.email, full_name: u.fullName, is_mirror_dummy: false })),
    type: m.channel ? 'stream' : 'private',
    avatar_url: gravatarUrl(m.sender.email, m.sender.avatarVersion),
    content_type: 'text/html',
  };
  if (m.channel) message.stream_id = m.channel.id;
  return {
    realmId: m.realmId,
    event: { type: 'message', message },
    userIds: m.rows.map((r) => r.userId),
    perUser: Object.fromEntries(m.rows.map((r) => [String(r.userId), { flags: flagsToApi(r.flags) }])),
    publicChannel: m.channel?.public ?? false,
    localEcho: m.localEcho,
  };
}
