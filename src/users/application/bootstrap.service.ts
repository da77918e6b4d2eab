import { REALM_GROUP_SETTING_NAMES, REALM_GROUP_SETTINGS } from '@app/domain/realm';
import { BotType, Role } from '@app/domain/users';
import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { Clock } from '../../shared/application/clock.js';
import { PasswordHasher } from '../../shared/application/password-hasher.js';
import { Secrets } from '../../shared/application/secrets.js';
import { type Tx, UnitOfWork } from '../../shared/application/unit-of-work.js';
import { ServerConfig } from '../../shared/config/server-config.js';
import { AppLogger } from '../../shared/logging/logger.js';
import { NewAccounts } from './new-accounts.js';
import { OrganizationChannels } from './user.ports.js';

export const NOTIFICATION_BOT = { localPart: 'notification-bot', fullName: 'Notification Bot' };
export const EMAIL_GATEWAY_BOT = { localPart: 'emailgateway', fullName: 'Email Gateway' };

export interface BootstrapResult {
  realmId: number;
  created: boolean;
  /** Set only when this start generated the owner's password (printed once). */
  generatedPassword?: string;
}

export interface NewOrganization {
  stringId: string;
  name: string;
  ownerEmail: string;
  ownerPassword: string;
  ownerFullName?: string;
}

/**
 * First start: creates the organization (REALM_NAME), its system groups and their nesting,
 * the default permission settings, Zulip's initial channels (`Zulip`, `sandbox`, `general`, the
 * default channels), the owner (OWNER_EMAIL / OWNER_PASSWORD, who joins them) and the system
 * bots (who do not). Later starts only load it: the bootstrap variables are read only while no
 * organization exists, and an advisory lock keeps two starting servers from both creating one.
 */
@Injectable()
export class BootstrapService implements OnApplicationBootstrap {
  lastResult: BootstrapResult | null = null;

  constructor(
    private readonly uow: UnitOfWork,
    private readonly accounts: NewAccounts,
    private readonly hasher: PasswordHasher,
    private readonly secrets: Secrets,
    private readonly clock: Clock,
    private readonly config: ServerConfig,
    private readonly logger: AppLogger,
    private readonly organizationChannels: OrganizationChannels,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    this.lastResult = await this.ensureOrganization();
  }

  async ensureOrganization(): Promise<BootstrapResult> {
    const generatedPassword = this.config.ownerPassword === undefined ? this.secrets.password() : undefined;
    const org: NewOrganization = {
      stringId: '',
      name: this.config.realmName,
      ownerEmail: this.config.ownerEmail,
      ownerPassword: this.config.ownerPassword ?? generatedPassword!,
    };
    return this.uow.run(async (tx) => {
      await tx.realms.lockForBootstrap();
      const existing = await tx.realms.firstRealmId();
      if (existing !== null) return { realmId: existing, created: false };
      const realmId = await this.createIn(tx, org);
      return { realmId, created: true, generatedPassword };
    });
  }

  /** Creates an organization (used by the first start, and by tests for a second one). */
  async createOrganization(org: NewOrganization): Promise<number> {
    return (await this.uow.run((tx) => this.create(tx, org))).realmId;
  }

  /** Creates an organization inside the caller's transaction (the admin command line's import). */
  async createIn(tx: Tx, org: NewOrganization): Promise<number> {
    return (await this.create(tx, org)).realmId;
  }

  /**
   * Zulip's do_create_realm then the owner's do_create_user. `initialChannelIds`: the initial
   * channels' ids by name (`general` is where Zulip points the announcement settings).
   */
  private async create(tx: Tx, org: NewOrganization): Promise<{ realmId: number; initialChannelIds: Map<string, number> }> {
    const now = this.clock.now();
    const realmId = await tx.realms.insert({ stringId: org.stringId, name: org.name, dateCreated: now });
    const groups = await tx.groups.createSystemGroups(realmId);
    await tx.realms.setGroupSettings(
      realmId,
      Object.fromEntries(REALM_GROUP_SETTING_NAMES.map((s) => [s, groups.get(REALM_GROUP_SETTINGS[s].defaultGroup)!])),
    );
    const initialChannelIds = await this.organizationChannels.createInitialChannels(tx, realmId, now);
    // Zulip announces new channels and server updates in "general"; sign-ups are not announced.
    const general = initialChannelIds.get('general')!;
    await tx.realms.setChannelSettings(realmId, [
      { key: 'newStreamAnnouncementsStreamId', sent: general, channelId: general },
      { key: 'updateAnnouncementsStreamId', sent: general, channelId: general },
    ]);
    const ownerId = await this.accounts.insert(tx, {
      realmId,
      email: org.ownerEmail,
      fullName: org.ownerFullName ?? 'Owner',
      passwordHash: await this.hasher.hash(org.ownerPassword),
      role: Role.OWNER,
      bot: null,
      waitingPeriodDays: 0,
    });
    await this.organizationChannels.subscribeFounder(tx, realmId, ownerId);
    const botDomain = this.config.botDomainFor(org.stringId);
    for (const bot of [NOTIFICATION_BOT, EMAIL_GATEWAY_BOT]) {
      await this.accounts.insert(tx, {
        realmId,
        email: `${bot.localPart}@${botDomain}`,
        fullName: bot.fullName,
        passwordHash: null,
        role: Role.MEMBER,
        bot: { type: BotType.GENERIC, ownerId: null, isSystemBot: true, defaultAllPublicStreams: false },
        waitingPeriodDays: 0,
      });
    }
    this.logger.info({ realmId, ownerId }, 'created an organization');
    return { realmId, initialChannelIds };
  }
}
