import { CustomEmojiCatalog, normaliseReactionType } from '@app/domain/emoji';
import {
  type Actor,
  assertCanAccessUser,
  isListedStatus,
  planStatusChange,
  type StatusChange,
  type StatusUpdateRequest,
  type UserStatusView,
  viewOfStatus,
} from '@app/domain/users';
import { Injectable } from '@nestjs/common';
import { EmojiCatalog } from '../../emoji/index.js';
import { type ClientEvent, toEveryone } from '../../shared/application/client-event.js';
import { Clock } from '../../shared/application/clock.js';
import { ServerConfig } from '../../shared/config/server-config.js';
import { type Tx, UnitOfWork } from '../../shared/application/unit-of-work.js';
import { UserStatusQueries } from './user-status.ports.js';
import { PresenceSettingEffects, UserQueries } from './user.ports.js';

/** What a status update sent, `away` aside; `statusText` is already parsed. */
export type StatusParams = Omit<StatusUpdateRequest, 'away'>;

/**
 * Zulip's do_update_user_status event: only what the request set (`away`, `status_text`, and
 * the emoji's three fields together; a cleared emoji is `""`/`""`/`unicode_emoji`).
 */
function statusEvent(userId: number, change: StatusChange): ClientEvent['event'] {
  const event: ClientEvent['event'] = { type: 'user_status', user_id: userId };
  if (change.away !== undefined) event.away = change.away;
  if (change.statusText !== undefined) event.status_text = change.statusText;
  if (change.emoji !== undefined) {
    event.emoji_name = change.emoji.name;
    event.emoji_code = change.emoji.code;
    event.reaction_type = change.emoji.reactionType;
  }
  return event;
}

/** User status (Zulip's zerver/views/presence.py and zerver/lib/user_status.py). */
@Injectable()
export class UserStatusService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly users: UserQueries,
    private readonly statuses: UserStatusQueries,
    private readonly clock: Clock,
    private readonly emoji: EmojiCatalog,
    private readonly config: ServerConfig,
    private readonly presence: PresenceSettingEffects,
  ) {}

  /** POST /users/me/status. */
  async updateOwnStatus(actor: Actor, req: StatusUpdateRequest): Promise<void> {
    await this.uow.run(async (tx) => {
      await this.apply(tx, actor.realmId, actor.userId, req);
    });
  }

  /**
   * POST /users/{user_id}/status: the target must be an active human the caller administers
   * (in practice: the caller is an administrator). Zulip parses the deprecated `away`
   * parameter only after that check, hence `away` comes as a function that decodes it.
   */
  async updateUserStatus(actor: Actor, userId: number, params: StatusParams, away: () => boolean | undefined): Promise<void> {
    await this.uow.run(async (tx) => {
      const target = await tx.users.findById(actor.realmId, userId);
      assertCanAccessUser(actor, target, { allowBots: false, allowDeactivated: false, forAdmin: true });
      await this.apply(tx, actor.realmId, userId, { ...params, away: away() });
    });
  }

  /** GET /users/{user_id}/status: the set parts of an active human's status. */
  async getUserStatus(actor: Actor, userId: number): Promise<UserStatusView> {
    const target = await this.users.get(actor.realmId, userId);
    assertCanAccessUser(actor, target, { allowBots: false, allowDeactivated: false, forAdmin: false });
    const status = await this.statuses.get(actor.realmId, userId);
    return status === null ? {} : viewOfStatus(status);
  }

  /** POST /register's `user_status`: active users with something set, by user ID. */
  async statusesOfRealm(actor: Actor): Promise<Map<number, UserStatusView>> {
    const all = await this.statuses.listActive(actor.realmId);
    return new Map(all.filter(isListedStatus).map((s) => [s.userId, viewOfStatus(s)]));
  }

  private async apply(tx: Tx, realmId: number, userId: number, req: StatusUpdateRequest): Promise<void> {
    // Custom emoji matter only when an emoji is named.
    const catalog = req.emojiName ? new CustomEmojiCatalog(await tx.realmEmoji.customEmoji(realmId)) : CustomEmojiCatalog.EMPTY;
    // Zulip's clients name the extra emoji's type zulip_extra_emoji (ZULIP_CLIENT_COMPAT).
    const reactionType = this.config.zulipClientCompat ? normaliseReactionType(req.reactionType) : req.reactionType;
    const change: StatusChange = planStatusChange({ ...req, reactionType }, catalog, this.emoji.unicode());
    if (change.away !== undefined) {
      await tx.userStatus.setPresenceEnabled(realmId, userId, !change.away);
      await this.presence.presenceEnabledChanged(tx, realmId, userId, !change.away);
    }
    await tx.userStatus.upsert(realmId, userId, { statusText: change.statusText, emoji: change.emoji }, this.clock.now());
    tx.afterCommit(toEveryone(realmId, [statusEvent(userId, change)]));
  }
}
