import type { UserEvent } from '@app/domain/users';
import { type ClientEvent, toEveryone } from '../../shared/application/client-event.js';
import type { Tx } from '../../shared/application/unit-of-work.js';
import type { BotRecord } from './bot.ports.js';
import { presentBot } from './user.views.js';

type Payload = ClientEvent['event'];

/** A bot as it is now, and who has it in their realm_bots (Zulip's bot_owner_user_ids). */
export interface BotAudience {
  readonly bot: BotRecord;
  readonly owners: readonly number[];
}

/** Zulip's created_bot_event. */
export function botAddedEvent(b: BotRecord): Payload {
  const { owner_id, ...bot } = presentBot(b);
  return { type: 'realm_bot', op: 'add', bot: owner_id === null ? bot : { ...bot, owner_id } };
}

/** Zulip's bot_owner_user_ids, given the organization's human administrators: they too, unless a default channel is private. */
export function botOwnersAmong(b: BotRecord, humanAdminIds: readonly number[]): number[] {
  const ids = new Set<number>(b.hasPrivateDefaultChannel ? [] : humanAdminIds);
  if (b.ownerId !== null) ids.add(b.ownerId);
  return [...ids];
}

/** Zulip's bot_owner_user_ids: the owner, plus the human administrators unless a default channel is private. */
export async function botOwnerUserIds(tx: Tx, realmId: number, b: BotRecord): Promise<number[]> {
  return botOwnersAmong(b, b.hasPrivateDefaultChannel ? [] : await tx.bots.humanAdminIds(realmId));
}

/** The `person` of the realm_user `update` announcing one recorded change. */
function personChange(e: UserEvent): Record<string, unknown> {
  switch (e.type) {
    case 'role_changed':
      return { user_id: e.userId, role: e.role };
    case 'full_name_changed':
      return { user_id: e.userId, full_name: e.fullName };
    case 'deactivated':
      return { user_id: e.userId, is_active: false };
    case 'reactivated':
      return { user_id: e.userId, is_active: true };
  }
}

/** The realm_bot event a bot's owners get for one recorded change (a role change: none). */
function botChange(e: UserEvent, bot: BotRecord): Payload | null {
  const update = (fields: Record<string, unknown>): Payload => ({ type: 'realm_bot', op: 'update', bot: { user_id: e.userId, ...fields } });
  switch (e.type) {
    case 'full_name_changed':
      return update({ full_name: e.fullName });
    case 'deactivated':
      return update({ is_active: false });
    case 'reactivated':
      return botAddedEvent(bot);
    case 'role_changed':
      return null;
  }
}

/**
 * The client events of what a user recorded (Zulip's do_change_user_role, do_change_full_name,
 * do_deactivate_user, do_reactivate_user): a realm_user `update` per change for everyone, in
 * order; then, when `bot` is given, its owners' realm_bot events (a rename or deactivation
 * `update`, a reactivation `add` of the bot as it is now).
 */
export function userChangeEvents(realmId: number, recorded: readonly UserEvent[], bot: BotAudience | null = null): ClientEvent[] {
  const events = toEveryone(
    realmId,
    recorded.map((e) => ({ type: 'realm_user', op: 'update', person: personChange(e) })),
  );
  if (bot === null || bot.owners.length === 0) return events;
  for (const e of recorded) {
    const event = botChange(e, bot.bot);
    if (event !== null) events.push({ realmId, event, userIds: bot.owners });
  }
  return events;
}
