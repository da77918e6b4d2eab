import { Injectable } from '@nestjs/common';
import { Clock } from '../../shared/application/clock.js';
import type { OutgoingEmail } from '../../shared/application/email-sender.js';
import { UnitOfWork } from '../../shared/application/unit-of-work.js';
import { ServerConfig } from '../../shared/config/server-config.js';
import { RealmQueries } from '../../realm/index.js';
import { deviceBrowser, deviceOs, loginTime, newLoginEmail } from './account-emails.js';
import { UserSettingsQueries } from './user-settings.ports.js';

/** Zulip's JUST_CREATED_THRESHOLD: no login email in the first minute of an account. */
const JUST_CREATED_MS = 60_000;

/** Who logged in from where: the request's User-Agent and client address. */
export interface LoginClient {
  userAgent: string;
  ip: string;
}

/**
 * Zulip's email_on_new_login, as its fetch_api_key and login form call it after a successful password login:
 * not for bots, not when the user turned `enable_login_emails` off, not for an account created
 * less than a minute ago.
 */
@Injectable()
export class LoginNotices {
  constructor(
    private readonly queries: UserSettingsQueries,
    private readonly realms: RealmQueries,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly config: ServerConfig,
  ) {}

  /** Sends the email in a transaction of its own. */
  async loggedIn(realmId: number, userId: number, client: LoginClient): Promise<void> {
    const email = await this.emailFor(realmId, userId, client);
    if (email !== null) await this.uow.run((tx) => tx.emails.send(email, this.clock.now()));
  }

  /** The email to send about this login (null: none), for a caller that sends it in its own transaction. */
  async emailFor(realmId: number, userId: number, client: LoginClient): Promise<OutgoingEmail | null> {
    const now = this.clock.now();
    const u = await this.queries.loginNoticeFacts(realmId, userId);
    if (u === null || u.isBot || !u.enableLoginEmails || u.deliveryEmail === '') return null;
    if (now.getTime() - u.dateJoined.getTime() <= JUST_CREATED_MS) return null;
    const realm = await this.realms.get(realmId);
    return newLoginEmail({
      realmId,
      to: u.deliveryEmail,
      realmUrl: this.config.realmUrl(realm.stringId),
      time: loginTime(now, u.timezone, u.twentyFourHourTime),
      browser: deviceBrowser(client.userAgent),
      os: deviceOs(client.userAgent),
      ip: client.ip === '' ? 'Unknown IP address' : client.ip,
    });
  }
}
