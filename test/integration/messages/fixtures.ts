import { Message } from '@app/domain/messages';
import type { DataSource } from 'typeorm';
import type { Account, TestApp } from '../../support/test-app.js';

/** Shared set-up of the messages context's integration tests (not a spec file). */

export async function realmOf(ds: DataSource, userId: number): Promise<number> {
  const [row]: { realm_id: number }[] = await ds.query(`SELECT realm_id FROM users WHERE id = $1`, [userId]);
  return row.realm_id;
}

/** Subscribes the owner and these users to the channel (created if new, by the owner); returns its id. */
export async function channelWith(t: TestApp, name: string, users: readonly Account[], o: { inviteOnly?: boolean } = {}): Promise<number> {
  const res = await t.post('users/me/subscriptions', {
    form: { subscriptions: [{ name }], principals: [t.owner.id, ...users.map((u) => u.id)], ...(o.inviteOnly === true ? { invite_only: true } : {}) },
  });
  if (res.status !== 200) throw new Error(`subscribe failed: ${JSON.stringify(res.body)}`);
  // Its creation notice stays, but not as its first message: the tests decide which message is.
  const [row]: { id: number }[] = await t.sql(`UPDATE channels SET first_message_id = NULL WHERE name = $1 RETURNING id`, [name]);
  return row.id;
}

/** A new notice (no sending rules, so no facts to resolve) to store with `MessageRepository.add`. */
export function channelNotice(
  realmId: number,
  senderId: number,
  to: { channelId: number; recipientId: number; topic: string },
  content: string,
  o: { alsoReadBy?: readonly number[]; now?: Date } = {},
): Message {
  return Message.createNotice(
    { realmId, senderId, content, renderedContent: `<p>${content}</p>`, sendingClient: 'test' },
    { kind: 'channel', ...to },
    o.alsoReadBy ?? [],
    o.now ?? new Date('2026-01-02T03:04:05Z'),
  );
}

export function directNotice(realmId: number, senderId: number, recipientId: number, participants: readonly number[], content: string): Message {
  return Message.createNotice(
    { realmId, senderId, content, renderedContent: `<p>${content}</p>`, sendingClient: 'test' },
    { kind: 'direct', recipientId, participants },
    [],
    new Date('2026-01-02T03:04:05Z'),
  );
}
