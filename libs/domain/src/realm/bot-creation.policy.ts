import { insufficientPermission, badRequest } from '../shared/domain-error.js';
import { BotType } from '../users/role.js';

/**
 * Zulip's check_can_create_bot + check_valid_bot_type. `inBotsGroup` / `inWriteOnlyBotsGroup`
 * say whether the actor holds can_create_bots_group / can_create_write_only_bots_group.
 */
export function assertCanCreateBot(
  botType: number,
  inBotsGroup: boolean,
  inWriteOnlyBotsGroup: boolean,
  embeddedBotsEnabled: boolean,
): void {
  if (!inBotsGroup && !(botType === BotType.INCOMING_WEBHOOK && inWriteOnlyBotsGroup)) {
    throw insufficientPermission();
  }
  const allowed: number[] = inBotsGroup
    ? [BotType.GENERIC, BotType.INCOMING_WEBHOOK, BotType.OUTGOING_WEBHOOK]
    : [BotType.INCOMING_WEBHOOK];
  if (inBotsGroup && embeddedBotsEnabled) allowed.push(BotType.EMBEDDED);
  if (!allowed.includes(botType)) throw badRequest('Invalid bot type');
}
