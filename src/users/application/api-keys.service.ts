import { Injectable } from '@nestjs/common';
import type { RateDecision } from '../../shared/application/rate-limiter.js';
import { type LoginClient, LoginNotices } from './login-notices.js';
import { PasswordAuthentication } from './password-authentication.js';

export interface FetchedApiKey {
  apiKey: string;
  email: string;
  userId: number;
}

/**
 * POST /fetch_api_key: email + password → API key, checked as every password login is
 * (PasswordAuthentication). A success emails the user about the new login (Zulip's
 * email_on_new_login, see LoginNotices).
 */
@Injectable()
export class ApiKeysService {
  constructor(
    private readonly passwords: PasswordAuthentication,
    private readonly notices: LoginNotices,
  ) {}

  async fetchApiKey(
    realmId: number,
    username: string,
    password: string,
    onRate: (d: RateDecision) => void,
    client: LoginClient = { userAgent: '', ip: '' },
  ): Promise<FetchedApiKey> {
    const c = await this.passwords.authenticate(realmId, username, password, onRate);
    await this.notices.loggedIn(realmId, c.userId, client);
    return { apiKey: c.apiKey, email: c.deliveryEmail, userId: c.userId };
  }
}
