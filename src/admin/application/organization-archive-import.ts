import { type ArchiveTable, invalidArchive } from '@app/domain/exports';
import { displayEmail, Role } from '@app/domain/users';
import { Injectable } from '@nestjs/common';
import { ArchiveReader, type OpenedArchive } from '../../exports/index.js';
import { Secrets } from '../../shared/application/secrets.js';
import { type Tx, UnitOfWork } from '../../shared/application/unit-of-work.js';
import { ServerConfig } from '../../shared/config/server-config.js';
import { BootstrapService } from '../../users/index.js';
import { AdminService } from './admin.service.js';
import { type ArchiveRow, ImportedFiles } from './archive-import.ports.js';

const SYSTEM_BOT_LOCAL_PARTS = ['notification-bot', 'emailgateway'];
const BATCH = 1000;
/** Columns of the owner's row that stay as the new organization made them. */
const OWNER_KEPT = new Set(['id', 'realm_id', 'email', 'delivery_email', 'password_hash', 'api_key', 'role', 'is_active', 'is_bot', 'bot_type',
  'bot_owner_id', 'is_system_bot', 'default_sending_stream_id', 'default_events_register_stream_id']);
/** Columns of the organization's row that are the new organization's own. */
const REALM_KEPT = new Set(['id', 'string_id', 'name', 'uuid', 'date_created', 'deactivated', 'settings_version']);
const REALM_CHANNEL_SETTINGS = ['moderation_request_channel_id', 'new_stream_announcements_stream_id', 'signup_announcements_stream_id', 'update_announcements_stream_id'];
const isGroupSetting = (column: string) => /^can_\w+_group_id$/.test(column);

export interface ArchiveImportResult {
  id: number;
  subdomain: string;
  url: string;
  ownerEmail: string;
  ownerPassword: string;
  imported: Partial<Record<ArchiveTable, number>>;
  /** Rows naming something the archive did not hold (a user, channel or message left out of it). */
  skipped: number;
}

async function collect(rows: AsyncIterable<ArchiveRow>): Promise<ArchiveRow[]> {
  const out: ArchiveRow[] = [];
  for await (const r of rows) out.push(r);
  return out;
}

async function* batches(rows: AsyncIterable<ArchiveRow>): AsyncIterable<ArchiveRow[]> {
  let batch: ArchiveRow[] = [];
  for await (const r of rows) {
    batch.push(r);
    if (batch.length === BATCH) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length > 0) yield batch;
}

const num = (v: unknown): number => {
  if (typeof v !== 'number' || !Number.isInteger(v)) throw invalidArchive(`an id is ${JSON.stringify(v)}`);
  return v;
};

/**
 * `import-organization <archive.tar.gz>`: an organization archive (what POST /export/realm and
 * `export-organization --archive` write) read into a NEW organization, in one transaction (all
 * or nothing). Every row gets a new id (taken from the table's sequence, in the archive's order,
 * so messages keep their order); each table is written with set-based statements over batches
 * of rows. The organization is created as `create-organization` does (system groups, system
 * bots, initial channels, owner), then filled: the archive's first active owner is that owner
 * (a one-time password), everyone else gets a new API key and no password.
 */
@Injectable()
export class OrganizationArchiveImport {
  constructor(
    private readonly admin: AdminService,
    private readonly bootstrap: BootstrapService,
    private readonly uow: UnitOfWork,
    private readonly secrets: Secrets,
    private readonly config: ServerConfig,
    private readonly archives: ArchiveReader,
    private readonly files: ImportedFiles,
  ) {}

  async import(file: string, target: { subdomain: string; name?: string }): Promise<ArchiveImportResult> {
    await this.admin.checkNewSubdomain(target.subdomain);
    const archive = await this.archives.open(file);
    try {
      const users = await collect(archive.rows('users'));
      const owner = users.filter((u) => u.role === Role.OWNER && u.is_active === true && u.is_bot !== true).sort((a, b) => num(a.id) - num(b.id))[0];
      if (owner === undefined || typeof owner.delivery_email !== 'string') throw invalidArchive('it has no active owner');
      const ownerPassword = this.secrets.password();
      const name = target.name ?? archive.manifest.organization.name;
      const run = { counts: {} as Partial<Record<ArchiveTable, number>>, skipped: 0 };
      const id = await this.uow.run(async (tx) => {
        const realmId = await this.bootstrap.createIn(tx, {
          stringId: target.subdomain,
          name,
          ownerEmail: owner.delivery_email as string,
          ownerPassword,
          ownerFullName: String(owner.full_name ?? 'Owner'),
        });
        const r = new ImportRun(tx, realmId, target.subdomain, archive, this.config, this.secrets, this.files);
        await r.run(users, owner);
        Object.assign(run, { counts: r.counts, skipped: r.skipped });
        return realmId;
      });
      return { id, subdomain: target.subdomain, url: this.config.realmUrl(target.subdomain), ownerEmail: owner.delivery_email, ownerPassword, imported: run.counts, skipped: run.skipped };
    } catch (err) {
      await this.files.removePlaced();
      throw err;
    } finally {
      await archive.close();
    }
  }
}

/** One import: the id maps (archive id → new id) and the tables in order. */
class ImportRun {
  readonly counts: Partial<Record<ArchiveTable, number>> = {};
  skipped = 0;
  private readonly users = new Map<number, number>();
  private readonly groups = new Map<number, number>();
  private readonly channels = new Map<number, number>();
  private readonly emoji = new Map<number, number>();
  private readonly attachments = new Map<number, number>();
  private readonly messages = new Map<number, number>();
  private channelRecipients = new Map<number, number>();
  private oldRealmId = 0;

  constructor(
    private readonly tx: Tx,
    private readonly realmId: number,
    private readonly subdomain: string,
    private readonly archive: OpenedArchive,
    private readonly config: ServerConfig,
    private readonly secrets: Secrets,
    private readonly files: ImportedFiles,
  ) {}

  private get w() {
    return this.tx.archiveImport;
  }

  /** The new id of an archive id (null stays null; an id the archive did not hold: undefined). */
  private static mapped(map: Map<number, number>, v: unknown): number | null | undefined {
    return v === null || v === undefined ? null : map.get(num(v));
  }

  private count(table: ArchiveTable, n: number): void {
    this.counts[table] = (this.counts[table] ?? 0) + n;
  }

  async run(users: ArchiveRow[], owner: ArchiveRow): Promise<void> {
    const realm = (await collect(this.archive.rows('realm')))[0];
    this.oldRealmId = num(realm?.id ?? this.archive.manifest.organization.id);
    await this.importUsers(users, owner);
    await this.importGroups();
    await this.importChannels(users);
    await this.importEmoji();
    await this.importAttachments();
    await this.importMessages();
    await this.importMessageRows();
    await this.w.finishChannels(this.realmId);
    if (realm !== undefined) await this.importRealmSettings(realm);
  }

  private async importUsers(users: ArchiveRow[], owner: ArchiveRow): Promise<void> {
    const botDomain = this.config.botDomainFor(this.subdomain);
    const ownerId = (await this.w.userIdByEmail(this.realmId, owner.delivery_email as string))!;
    this.users.set(num(owner.id), ownerId);
    const rest: ArchiveRow[] = [];
    for (const u of users) {
      if (u === owner) continue;
      const local = String(u.delivery_email ?? '').split('@')[0];
      if (u.is_system_bot === true) {
        if (SYSTEM_BOT_LOCAL_PARTS.includes(local)) this.users.set(num(u.id), (await this.tx.users.systemBot(this.realmId, local)).id);
        else this.skipped += 1;
      } else rest.push(u);
    }
    const ids = await this.w.allocateIds('users', rest.length);
    rest.forEach((u, i) => this.users.set(num(u.id), ids[i]));
    const rows = rest.map((u, i) => {
      const delivery = u.is_bot === true ? `${String(u.delivery_email).split('@')[0]}@${botDomain}` : String(u.delivery_email);
      const email = u.is_bot === true ? delivery : displayEmail(ids[i], delivery, Number(u.email_address_visibility ?? 1), botDomain);
      return {
        ...u,
        id: ids[i],
        realm_id: this.realmId,
        email,
        delivery_email: delivery,
        api_key: this.secrets.apiKey(),
        password_hash: null,
        bot_owner_id: ImportRun.mapped(this.users, u.bot_owner_id) ?? null,
        default_sending_stream_id: null,
        default_events_register_stream_id: null,
      };
    });
    await this.w.insertRows('users', rows);
    const ownerEmail = displayEmail(ownerId, owner.delivery_email as string, Number(owner.email_address_visibility ?? 1), botDomain);
    const ownerRow = { ...owner, id: ownerId, email: ownerEmail };
    await this.w.updateRows('users', [ownerRow], [...Object.keys(owner).filter((c) => !OWNER_KEPT.has(c)), 'email']);
    this.count('users', this.users.size);
  }

  private async importGroups(): Promise<void> {
    const groups = await collect(this.archive.rows('user_groups'));
    const system = await this.w.systemGroupIds(this.realmId);
    const fresh = groups.filter((g) => {
      const existing = g.is_system_group === true ? system.get(String(g.name)) : undefined;
      if (existing !== undefined) this.groups.set(num(g.id), existing);
      return existing === undefined;
    });
    const ids = await this.w.allocateIds('user_groups', fresh.length);
    fresh.forEach((g, i) => this.groups.set(num(g.id), ids[i]));
    const settings = (g: ArchiveRow) => Object.fromEntries(Object.keys(g).filter(isGroupSetting).map((c) => [c, ImportRun.mapped(this.groups, g[c]) ?? null]));
    const rows = fresh.map((g, i) => ({ ...g, id: ids[i], realm_id: this.realmId, creator_id: ImportRun.mapped(this.users, g.creator_id) ?? null }));
    await this.w.insertRows('user_groups', rows.map((g) => ({ ...g, ...Object.fromEntries(Object.keys(g).filter(isGroupSetting).map((c) => [c, null])) })));
    await this.w.updateRows('user_groups', rows.map((g, i) => ({ id: g.id, ...settings(fresh[i]) })), Object.keys(fresh[0] ?? {}).filter(isGroupSetting));
    this.count('user_groups', rows.length);
    for await (const batch of batches(this.archive.rows('user_group_members'))) {
      const members = this.mapRows(batch, (m) => ({ group_id: this.groups.get(num(m.group_id)), user_id: this.users.get(num(m.user_id)), realm_id: this.realmId }));
      await this.w.insertRows('user_group_members', members, { skipConflicts: true });
      this.count('user_group_members', members.length);
    }
    for await (const batch of batches(this.archive.rows('user_group_subgroups'))) {
      const subgroups = this.mapRows(batch, (s) => ({ supergroup_id: this.groups.get(num(s.supergroup_id)), subgroup_id: this.groups.get(num(s.subgroup_id)), realm_id: this.realmId }));
      await this.w.insertRows('user_group_subgroups', subgroups, { skipConflicts: true });
      this.count('user_group_subgroups', subgroups.length);
    }
  }

  /** Maps each row; a row with an id the archive did not hold (undefined) is skipped and counted. */
  private mapRows(rows: ArchiveRow[], map: (r: ArchiveRow) => ArchiveRow): ArchiveRow[] {
    const out: ArchiveRow[] = [];
    for (const r of rows) {
      const m = map(r);
      if (Object.values(m).includes(undefined)) this.skipped += 1;
      else out.push(m);
    }
    return out;
  }

  private async importChannels(users: ArchiveRow[]): Promise<void> {
    const channels = await collect(this.archive.rows('channels'));
    const existing = await this.w.channelIdsByName(this.realmId);
    const fresh = channels.filter((c) => {
      const id = existing.get(String(c.name).toLowerCase());
      if (id !== undefined) this.channels.set(num(c.id), id);
      return id === undefined;
    });
    const ids = await this.w.allocateIds('channels', fresh.length);
    fresh.forEach((c, i) => this.channels.set(num(c.id), ids[i]));
    const rows = this.mapRows(channels, (c) => ({
      ...c,
      id: this.channels.get(num(c.id)),
      realm_id: this.realmId,
      creator_id: ImportRun.mapped(this.users, c.creator_id) ?? null,
      folder_id: null,
      first_message_id: null,
      ...Object.fromEntries(Object.keys(c).filter(isGroupSetting).map((k) => [k, ImportRun.mapped(this.groups, c[k])])),
    }));
    const isFresh = new Set(ids);
    await this.w.insertRows('channels', rows.filter((c) => isFresh.has(c.id as number)));
    const merged = rows.filter((c) => !isFresh.has(c.id as number));
    await this.w.updateRows('channels', merged, Object.keys(merged[0] ?? {}).filter((k) => !['realm_id', 'name', 'date_created'].includes(k)));
    this.count('channels', rows.length);
    this.channelRecipients = await this.w.channelRecipients(this.realmId);
    const defaults = users.filter((u) => this.users.has(num(u.id)) && (u.default_sending_stream_id != null || u.default_events_register_stream_id != null));
    await this.w.updateRows(
      'users',
      defaults.map((u) => ({
        id: this.users.get(num(u.id)),
        default_sending_stream_id: ImportRun.mapped(this.channels, u.default_sending_stream_id) ?? null,
        default_events_register_stream_id: ImportRun.mapped(this.channels, u.default_events_register_stream_id) ?? null,
      })),
      ['default_sending_stream_id', 'default_events_register_stream_id'],
    );
    await this.w.deleteSubscriptions(this.realmId);
    for await (const batch of batches(this.archive.rows('subscriptions'))) {
      const subs = this.mapRows(batch, ({ id: _id, ...s }) => ({ ...s, realm_id: this.realmId, user_id: this.users.get(num(s.user_id)), channel_id: this.channels.get(num(s.channel_id)) }));
      await this.w.insertRows('subscriptions', subs, { skipConflicts: true });
      this.count('subscriptions', subs.length);
    }
  }

  private async importEmoji(): Promise<void> {
    const emoji = await collect(this.archive.rows('realm_emoji'));
    const ids = await this.w.allocateIds('realm_emoji', emoji.length);
    emoji.forEach((e, i) => this.emoji.set(num(e.id), ids[i]));
    await this.w.insertRows('realm_emoji', emoji.map((e, i) => ({ ...e, id: ids[i], realm_id: this.realmId, author_id: ImportRun.mapped(this.users, e.author_id) ?? null })));
    for (const e of emoji) {
      const name = e.file_name;
      if (typeof name !== 'string' || !/^[\w.-]+$/.test(name) || name.startsWith('.')) continue;
      for (const f of [name, `still/${name.replace(/\.[^.]*$/, '')}.png`]) {
        const from = await this.archive.file(`emoji/${f}`);
        if (from !== null) await this.files.placeEmoji(from, this.realmId, f);
      }
    }
    this.count('realm_emoji', emoji.length);
  }

  private async importAttachments(): Promise<void> {
    const attachments = await collect(this.archive.rows('attachments'));
    const ids = await this.w.allocateIds('attachments', attachments.length);
    attachments.forEach((a, i) => this.attachments.set(num(a.id), ids[i]));
    const rows = this.mapRows(attachments, (a) => ({
      ...a,
      id: this.attachments.get(num(a.id)),
      realm_id: this.realmId,
      owner_id: this.users.get(num(a.owner_id)),
      path_id: String(a.path_id).replace(/^[^/]+\//, `${this.realmId}/`),
    }));
    await this.w.insertRows('attachments', rows);
    for (let i = 0; i < attachments.length; i++) {
      const from = await this.archive.file(`uploads/${String(attachments[i].path_id)}`);
      const row = rows.find((r) => r.id === ids[i]);
      if (from !== null && row !== undefined) await this.files.placeUpload(from, String(row.path_id));
    }
    this.count('attachments', rows.length);
  }

  /** Links to the organization's uploads and emoji images name it by id: they follow it. */
  private rewrite(text: unknown): unknown {
    if (typeof text !== 'string') return text;
    return text
      .replaceAll(`/user_uploads/${this.oldRealmId}/`, `/user_uploads/${this.realmId}/`)
      .replaceAll(`/user_avatars/${this.oldRealmId}/`, `/user_avatars/${this.realmId}/`);
  }

  private async importMessages(): Promise<void> {
    for await (const batch of batches(this.archive.rows('messages'))) {
      const participants = (m: ArchiveRow) => (Array.isArray(m.direct_user_ids) ? m.direct_user_ids.map((u) => this.users.get(num(u))) : []);
      const direct = batch.filter((m) => m.channel_id === null).map(participants).filter((s): s is number[] => !s.includes(undefined) && s.length > 0);
      const conversations = await this.w.directRecipients(this.realmId, direct);
      const ids = await this.w.allocateIds('messages', batch.length);
      batch.forEach((m, i) => this.messages.set(num(m.id), ids[i]));
      const rows = this.mapRows(batch, ({ direct_user_ids: _d, ...m }) => {
        const channelId = m.channel_id === null ? null : this.channels.get(num(m.channel_id));
        const key = [...new Set(participants({ direct_user_ids: _d }) as number[])].sort((a, b) => a - b).join(',');
        return {
          ...m,
          id: this.messages.get(num(m.id)),
          realm_id: this.realmId,
          sender_id: this.users.get(num(m.sender_id)),
          channel_id: channelId,
          recipient_id: channelId === null ? conversations.get(key) : channelId === undefined ? undefined : this.channelRecipients.get(channelId),
          content: this.rewrite(m.content),
          rendered_content: this.rewrite(m.rendered_content),
        };
      });
      const kept = new Set(rows.map((r) => r.id));
      for (const m of batch) if (!kept.has(this.messages.get(num(m.id)))) this.messages.delete(num(m.id));
      await this.w.insertRows('messages', rows);
      this.count('messages', rows.length);
    }
  }

  private async importMessageRows(): Promise<void> {
    let userMessages = 0;
    for await (const batch of batches(this.archive.rows('user_messages'))) {
      const rows = this.mapRows(batch, (u) => ({ ...u, user_id: this.users.get(num(u.user_id)), message_id: this.messages.get(num(u.message_id)) }));
      await this.w.insertRows('user_messages', rows, { skipConflicts: true });
      userMessages += rows.length;
    }
    this.count('user_messages', userMessages);
    // A public export holds nobody's flags: the subscribers get the channels' history, as read.
    if (userMessages === 0) await this.w.addSubscriberHistory(this.realmId);
    for await (const batch of batches(this.archive.rows('reactions'))) {
      const rows = this.mapRows(batch, ({ id: _id, ...r }) => ({
        ...r,
        realm_id: this.realmId,
        user_id: this.users.get(num(r.user_id)),
        message_id: this.messages.get(num(r.message_id)),
        emoji_code: r.reaction_type === 'realm_emoji' ? String(this.emoji.get(Number(r.emoji_code)) ?? r.emoji_code) : r.emoji_code,
      }));
      await this.w.insertRows('reactions', rows, { skipConflicts: true });
      this.count('reactions', rows.length);
    }
    for await (const batch of batches(this.archive.rows('attachment_messages'))) {
      const rows = this.mapRows(batch, (l) => ({ attachment_id: this.attachments.get(num(l.attachment_id)), message_id: this.messages.get(num(l.message_id)) }));
      await this.w.insertRows('attachment_messages', rows, { skipConflicts: true });
      this.count('attachment_messages', rows.length);
    }
  }

  private async importRealmSettings(realm: ArchiveRow): Promise<void> {
    const row: ArchiveRow = { ...realm, id: this.realmId };
    for (const c of REALM_CHANNEL_SETTINGS) if (c in row) row[c] = ImportRun.mapped(this.channels, row[c]) ?? null;
    await this.w.updateRows('realms', [row], Object.keys(realm).filter((c) => !REALM_KEPT.has(c)));
    this.count('realm', 1);
  }
}
