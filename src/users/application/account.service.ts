import { escapeHtml } from '@app/domain/shared';
import { type Actor, EMAIL_ADDRESS_VISIBILITY, rolesSeeing } from '@app/domain/users';
import { Injectable } from '@nestjs/common';
import { Clock } from '../../shared/application/clock.js';
import { Secrets } from '../../shared/application/secrets.js';
import { type Tx, UnitOfWork } from '../../shared/application/unit-of-work.js';
import { EmailChanges } from './email-changes.js';
import type { AccountState, EmailChangeRequest } from './user-settings.ports.js';
import { avatarChangeEvent, personUpdate } from './user-settings.events.js';

/** Why a confirmation link does not work (Zulip's ConfirmationKeyError), or that it did. */
export type EmailChangeOutcome =
  | { kind: 'changed'; oldEmail: string; newEmail: string }
  | { kind: 'malformed' | 'does_not_exist' | 'expired' | 'realm_deactivated' | 'user_deactivated' };

/** Regenerating the API key and confirming a new email address. */
@Injectable()
export class AccountService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly secrets: Secrets,
    private readonly clock: Clock,
    private readonly emailChanges: EmailChanges,
  ) {}

  /**
   * POST /users/me/api_key/regenerate (bots too). Authentication reads the key from the
   * database on every request, so the old key stops working as soon as this commits.
   */
  async regenerateApiKey(actor: Actor): Promise<string> {
    const apiKey = this.secrets.apiKey();
    await this.uow.run((tx) => tx.accounts.setApiKey(actor.realmId, actor.userId, apiKey));
    return apiKey;
  }

  /** The GET of a confirmation link: does it work (without using it)? */
  async checkEmailChangeKey(key: string): Promise<'malformed' | 'does_not_exist' | 'expired' | 'valid'> {
    if (key.length !== 24 && key.length !== 40) return 'malformed';
    return this.uow.run(async (tx) => {
      const request = await tx.emailChanges.findByKeyForUpdate(key);
      if (request === null) return 'does_not_exist';
      return this.isUsable(request) ? 'valid' : 'expired';
    });
  }

  private isUsable(r: EmailChangeRequest): boolean {
    return r.status === 'pending' && r.expiresAt.getTime() >= this.clock.now().getTime();
  }

  /**
   * The email confirmation link (Zulip's confirm_email_change): the request is checked again,
   * then the address changes; the old address is told.
   */
  async confirmEmailChange(key: string): Promise<EmailChangeOutcome> {
    if (key.length !== 24 && key.length !== 40) return { kind: 'malformed' };
    return this.uow.run(async (tx) => {
      const request = await tx.emailChanges.findByKeyForUpdate(key);
      if (request === null) return { kind: 'does_not_exist' };
      if (!this.isUsable(request)) return { kind: 'expired' };
      const me = await tx.userSettings.getForUpdate(request.realmId, request.userId);
      if (me === null || me.deliveryEmail !== request.oldEmail) return { kind: 'expired' };
      const realm = await tx.realms.get(request.realmId);
      if (realm.deactivated) return { kind: 'realm_deactivated' };
      if (!me.isActive) return { kind: 'user_deactivated' };
      await this.emailChanges.validate(tx, me.role as Actor['role'], realm, request.newEmail);
      await this.changeDeliveryEmail(tx, me, request);
      return { kind: 'changed', oldEmail: request.oldEmail, newEmail: request.newEmail };
    });
  }

  /** Zulip's do_change_user_delivery_email. */
  private async changeDeliveryEmail(tx: Tx, me: AccountState, request: EmailChangeRequest): Promise<void> {
    const visibility = Number(me.settings.email_address_visibility);
    const isPublic = visibility === EMAIL_ADDRESS_VISIBILITY.EVERYONE;
    const realmId = me.realmId;
    await tx.accounts.setEmails(realmId, me.userId, { deliveryEmail: request.newEmail, ...(isPublic ? { email: request.newEmail } : {}) });
    await tx.emailChanges.markUsed(request.id);
    const seeing = await tx.userSettings.activeUserIdsWithRoles(realmId, rolesSeeing(visibility), me.userId);
    tx.afterCommit(personUpdate(realmId, { user_id: me.userId, delivery_email: request.newEmail }, [me.userId, ...seeing]));
    tx.afterCommit([avatarChangeEvent(realmId, me.userId, { ...me, deliveryEmail: request.newEmail })]);
    if (isPublic) tx.afterCommit(personUpdate(realmId, { user_id: me.userId, new_email: request.newEmail }, null));
    await tx.emails.send(
      {
        realmId,
        kind: 'email_changed',
        to: request.oldEmail,
        subject: 'Email address changed',
        body: `Hi,\n\nThe email associated with your account was recently changed to ${request.newEmail}. If you did not request this change, please contact the organization administrators immediately.\n`,
        html: `<p>Hi,</p>\n<p>The email associated with your account was recently changed to ${escapeHtml(request.newEmail)}. If you did not request this change, please contact the organization administrators immediately.</p>`,
      },
      this.clock.now(),
    );
  }
}
