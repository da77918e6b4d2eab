import type { ChannelGroupSettingName } from '@app/domain/channels';
import { badRequest, paragraphHtml } from '@app/domain/shared';
import { BotType, Role } from '@app/domain/users';
import { Injectable } from '@nestjs/common';
import { Secrets } from '../../shared/application/secrets.js';
import { type Tx, UnitOfWork } from '../../shared/application/unit-of-work.js';
import { ServerConfig } from '../../shared/config/server-config.js';
import { BootstrapService, NewAccounts } from '../../users/index.js';
import { AdminService } from './admin.service.js';
import type { ExportSection, ImportedChannel, ImportedMessage, ImportedSubscription, ImportedUser } from './admin.ports.js';
import { EXPORT_FORMAT, EXPORT_VERSION } from './organization-export.js';

const SYSTEM_BOT_LOCAL_PARTS = ['notification-bot', 'emailgateway'];
const ROLES = new Set<number>(Object.values(Role));

export interface ImportResult {
  id: number;
  subdomain: string;
  url: string;
  ownerEmail: string;
  ownerPassword: string;
  imported: Record<ExportSection, number>;
  /** Records naming a user or channel the export did not contain (or a user the import could not take). */
  skipped: number;
}

const invalidExport = (why: string) => badRequest(`Not an organization export: ${why}`);

/** One parsed line of an export: the header, a section start or end, or a record. */
type ExportLine = { kind: 'header'; header: Record<string, unknown> } | { kind: 'section'; section: ExportSection } | { kind: 'end' } | { kind: 'record'; row: Record<string, unknown> };

/** Reads one line of the layout `export-organization` writes (see OrganizationExport). */
export function parseExportLine(line: string, first: boolean): ExportLine | null {
  const text = line.trim();
  if (text === '') return null;
  try {
    if (first) return { kind: 'header', header: JSON.parse(text.endsWith(',') ? `${text.slice(0, -1)}}` : text) };
    const section = /^"(users|channels|subscriptions|messages)":\[$/.exec(text);
    if (section) return { kind: 'section', section: section[1] as ExportSection };
    if (/^\](,|\})?\}?$/.test(text)) return { kind: 'end' };
    return { kind: 'record', row: JSON.parse(text.endsWith(',') ? text.slice(0, -1) : text) };
  } catch {
    throw invalidExport(`line "${text.slice(0, 60)}" is not JSON in its layout`);
  }
}

/** The ids of the export mapped to the new organization's. */
class IdMaps {
  readonly users = new Map<number, number>();
  readonly channels = new Map<number, number>();
  readonly counts: Record<ExportSection, number> = { users: 0, channels: 0, subscriptions: 0, messages: 0 };
  skipped = 0;
}

/**
 * `import-organization`: reads an export line by line into a NEW organization, in one
 * transaction (all or nothing), with every id remapped. Users are read whole first (the owner
 * must exist before anything else); channels, subscriptions and messages stream through.
 * Passwords and API keys are not exported: imported users get new API keys and no password
 * (`change-password` sets one); the owner gets a one-time password.
 */
@Injectable()
export class OrganizationImport {
  constructor(
    private readonly admin: AdminService,
    private readonly bootstrap: BootstrapService,
    private readonly accounts: NewAccounts,
    private readonly uow: UnitOfWork,
    private readonly secrets: Secrets,
    private readonly config: ServerConfig,
  ) {}

  async import(lines: AsyncIterable<string>, target: { subdomain: string; name?: string }): Promise<ImportResult> {
    await this.admin.checkNewSubdomain(target.subdomain);
    const reader = lines[Symbol.asyncIterator]();
    const header = await this.readHeader(reader);
    const users = await this.readUsers(reader);
    const owner = users.filter((u) => u.role === Role.OWNER && u.is_active && !u.is_bot).sort((a, b) => a.id - b.id)[0];
    if (owner === undefined) throw invalidExport('it has no active owner');
    const ownerPassword = this.secrets.password();
    const org = (header.organization ?? {}) as { name?: string };
    const name = target.name ?? org.name ?? target.subdomain;
    const maps = new IdMaps();
    const id = await this.uow.run(async (tx) => {
      const realmId = await this.bootstrap.createIn(tx, { stringId: target.subdomain, name, ownerEmail: owner.email, ownerPassword, ownerFullName: owner.full_name });
      await this.importUsers(tx, realmId, users, owner, maps);
      await this.importRest(tx, realmId, reader, maps);
      await tx.adminImport.finishChannels(realmId);
      return realmId;
    });
    const url = this.config.realmUrl(target.subdomain);
    return { id, subdomain: target.subdomain, url, ownerEmail: owner.email, ownerPassword, imported: maps.counts, skipped: maps.skipped };
  }

  private async next(reader: AsyncIterator<string>, first = false): Promise<ExportLine | null> {
    for (;;) {
      const r = await reader.next();
      if (r.done) return null;
      const line = parseExportLine(r.value, first);
      if (line !== null) return line;
    }
  }

  private async readHeader(reader: AsyncIterator<string>): Promise<Record<string, unknown>> {
    const line = await this.next(reader, true);
    if (line?.kind !== 'header') throw invalidExport('the file is empty');
    const { format, version } = line.header;
    if (format !== EXPORT_FORMAT) throw invalidExport(`format is ${JSON.stringify(format)}, not "${EXPORT_FORMAT}"`);
    if (version !== EXPORT_VERSION) throw invalidExport(`version ${JSON.stringify(version)} is not supported (only ${EXPORT_VERSION})`);
    return line.header;
  }

  private async readUsers(reader: AsyncIterator<string>): Promise<ImportedUser[]> {
    const start = await this.next(reader);
    if (start?.kind !== 'section' || start.section !== 'users') throw invalidExport('the users section must come first');
    const users: ImportedUser[] = [];
    for (let line = await this.next(reader); line?.kind === 'record'; line = await this.next(reader)) {
      const u = line.row as unknown as ImportedUser;
      if (typeof u.id !== 'number' || typeof u.email !== 'string' || !ROLES.has(u.role)) throw invalidExport(`bad user record ${JSON.stringify(u).slice(0, 80)}`);
      users.push(u);
    }
    return users;
  }

  private async importUsers(tx: Tx, realmId: number, users: ImportedUser[], owner: ImportedUser, maps: IdMaps): Promise<void> {
    const ownerId = (await tx.adminImport.userIdByEmail(realmId, owner.email)) ?? undefined;
    for (const u of users) {
      let id: number | undefined;
      if (u === owner) id = ownerId;
      else if (u.is_system_bot) id = await this.systemBot(tx, realmId, u.email);
      else id = await this.newAccount(tx, realmId, u);
      if (id === undefined) {
        maps.skipped += 1;
        continue;
      }
      if (!u.is_system_bot) await tx.adminImport.setAccountState(id, { isActive: u.is_active, dateJoined: new Date(u.date_joined), timezone: u.timezone ?? '' });
      maps.users.set(u.id, id);
      maps.counts.users += 1;
    }
  }

  private async systemBot(tx: Tx, realmId: number, email: string): Promise<number | undefined> {
    const local = email.split('@')[0];
    return SYSTEM_BOT_LOCAL_PARTS.includes(local) ? (await tx.users.systemBot(realmId, local)).id : undefined;
  }

  private async newAccount(tx: Tx, realmId: number, u: ImportedUser): Promise<number | undefined> {
    if (await tx.users.emailInUse(realmId, u.email)) return undefined;
    return this.accounts.insert(tx, {
      realmId,
      email: u.email,
      fullName: u.full_name,
      passwordHash: null,
      role: u.role,
      bot: u.is_bot ? { type: u.bot_type ?? BotType.GENERIC, ownerId: null, isSystemBot: false, defaultAllPublicStreams: false } : null,
      waitingPeriodDays: 0,
    });
  }

  private async importRest(tx: Tx, realmId: number, reader: AsyncIterator<string>, maps: IdMaps): Promise<void> {
    let section: ExportSection | null = null;
    for (let line = await this.next(reader); line !== null; line = await this.next(reader)) {
      if (line.kind === 'section') section = line.section;
      else if (line.kind === 'end') section = null;
      else if (line.kind === 'header') throw invalidExport('a second header');
      else if (section === 'channels') await this.importChannel(tx, realmId, line.row as unknown as ImportedChannel, maps);
      else if (section === 'subscriptions') await this.importSubscription(tx, realmId, line.row as unknown as ImportedSubscription, maps);
      else if (section === 'messages') await this.importMessage(tx, realmId, line.row as unknown as ImportedMessage, maps);
      else throw invalidExport('a record outside a section');
    }
  }

  private async importChannel(tx: Tx, realmId: number, c: ImportedChannel, maps: IdMaps): Promise<void> {
    if (typeof c.id !== 'number' || typeof c.name !== 'string') throw invalidExport(`bad channel record ${JSON.stringify(c).slice(0, 80)}`);
    let id = await tx.adminImport.channelIdByName(realmId, c.name);
    if (id === null) {
      id = await tx.channels.insert({
        realmId,
        name: c.name,
        description: c.description ?? '',
        renderedDescription: c.rendered_description ?? paragraphHtml(c.description ?? ''),
        inviteOnly: c.invite_only === true,
        isWebPublic: false,
        historyPublicToSubscribers: c.history_public_to_subscribers !== false,
        messageRetentionDays: null,
        topicsPolicy: 'inherit',
        folderId: null,
        dateCreated: new Date(c.date_created),
        creatorId: null,
        groupIds: (await tx.adminImport.channelGroupIds(realmId)) as Record<ChannelGroupSettingName, number>,
      });
      if (c.is_archived) await tx.adminImport.setArchived(id);
    }
    maps.channels.set(c.id, id);
    maps.counts.channels += 1;
  }

  private async importSubscription(tx: Tx, realmId: number, s: ImportedSubscription, maps: IdMaps): Promise<void> {
    const userId = maps.users.get(s.user_id);
    const channelId = maps.channels.get(s.channel_id);
    if (userId === undefined || channelId === undefined) {
      maps.skipped += 1;
      return;
    }
    await tx.adminImport.upsertSubscription(realmId, { ...s, user_id: userId, channel_id: channelId });
    maps.counts.subscriptions += 1;
  }

  private async importMessage(tx: Tx, realmId: number, m: ImportedMessage, maps: IdMaps): Promise<void> {
    const senderId = maps.users.get(m.sender_id);
    const channelId = m.channel_id === null ? null : maps.channels.get(m.channel_id);
    const direct = (m.direct_user_ids ?? []).map((u) => maps.users.get(u));
    if (senderId === undefined || channelId === undefined || direct.includes(undefined)) {
      maps.skipped += 1;
      return;
    }
    const recipientId =
      channelId !== null
        ? await tx.conversations.channelRecipient(realmId, channelId)
        : (await tx.conversations.directConversation(realmId, direct as number[])).recipientId;
    const flags = (m.user_flags ?? []).flatMap(([u, f]): [number, number][] => (maps.users.has(u) ? [[maps.users.get(u)!, f]] : []));
    await tx.adminImport.insertMessage(realmId, recipientId, { ...m, sender_id: senderId, channel_id: channelId, user_flags: flags });
    maps.counts.messages += 1;
  }
}
