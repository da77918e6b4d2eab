import { USER_GROUP_SETTING_NAMES, type UserGroupSettingName } from '@app/domain/realm';
import type { BotType, Role } from '@app/domain/users';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { ProfileValueRecord } from '../application/custom-profile-fields.ports.js';
import { type Credentials, type UserDirectory, type UserGroupView, UserQueries, type UserRecord } from '../application/user.ports.js';
import { type ProfileValueRow, toValue } from './typeorm-custom-profile-field.repository.js';
import {
  type GroupRowWithMembers,
  GROUPS_WITH_MEMBERS_SQL,
  settingValueFrom,
} from '../../shared/persistence/group-setting-values.js';

/** Every column but the secrets (password hash, API key). */
const USER_SELECT = `SELECT id, realm_id, email, delivery_email, full_name, role, is_active, is_bot, bot_type,
  bot_owner_id, is_system_bot, date_joined, timezone, avatar_version, avatar_path, default_sending_stream_id,
  default_events_register_stream_id, default_all_public_streams, email_address_visibility FROM users`;

/** A row of USER_SELECT. */
interface UserSqlRow {
  id: number;
  realm_id: number;
  email: string;
  delivery_email: string;
  full_name: string;
  role: Role;
  is_active: boolean;
  is_bot: boolean;
  bot_type: BotType | null;
  bot_owner_id: number | null;
  is_system_bot: boolean;
  date_joined: Date;
  timezone: string;
  avatar_version: number;
  avatar_path: string | null;
  default_sending_stream_id: number | null;
  default_events_register_stream_id: number | null;
  default_all_public_streams: boolean;
  email_address_visibility: number;
}

const toUser = (r: UserSqlRow): UserRecord => ({
  id: r.id,
  realmId: r.realm_id,
  email: r.email,
  deliveryEmail: r.delivery_email,
  fullName: r.full_name,
  role: r.role,
  isActive: r.is_active,
  isBot: r.is_bot,
  botType: r.bot_type,
  botOwnerId: r.bot_owner_id,
  isSystemBot: r.is_system_bot,
  dateJoined: r.date_joined,
  timezone: r.timezone,
  avatarVersion: r.avatar_version,
  avatarPath: r.avatar_path,
  defaultSendingStreamId: r.default_sending_stream_id,
  defaultEventsRegisterStreamId: r.default_events_register_stream_id,
  defaultAllPublicStreams: r.default_all_public_streams,
  emailAddressVisibility: r.email_address_visibility,
});

/** A row of credentialsByEmail (users ⋈ realms). */
interface CredentialsRow {
  id: number;
  realm_id: number;
  email: string;
  delivery_email: string;
  api_key: string;
  password_hash: string | null;
  role: number;
  is_active: boolean;
  is_bot: boolean;
  bot_type: number | null;
  realm_deactivated: boolean;
  password_auth_enabled: boolean;
  /** bigint */
  settings_version: string;
}

/** A row of ownProfile: the user, the newest message id it received and its profile values in field order. */
interface OwnProfileRow extends UserSqlRow {
  max_message_id: number | null;
  profile_values: ProfileValueRow[];
}

/** A row of directory: a user and its profile values in field order (null: none). */
interface DirectoryRow extends UserSqlRow {
  profile_values: ProfileValueRow[] | null;
}

/** A row of GROUPS_WITH_MEMBERS_SQL, with its setting columns (each a group id). */
type GroupSettingsRow = GroupRowWithMembers & Record<`${UserGroupSettingName}_id`, number>;

@Injectable()
export class TypeOrmUserQueries extends UserQueries {
  constructor(private readonly ds: DataSource) {
    super();
  }

  async credentialsByEmail(realmId: number, email: string): Promise<Credentials | null> {
    const rows: CredentialsRow[] = await this.ds.query(
      `SELECT u.id, u.realm_id, u.email, u.delivery_email, u.api_key, u.password_hash, u.role, u.is_active,
              u.is_bot, u.bot_type, r.deactivated AS realm_deactivated, r.password_auth_enabled,
              r.settings_version
       FROM users u JOIN realms r ON r.id = u.realm_id
       WHERE u.realm_id = $1 AND lower(u.delivery_email) = lower($2)`,
      [realmId, email],
    );
    if (rows.length === 0) return null;
    const r = rows[0];
    return {
      userId: r.id,
      realmId: r.realm_id,
      email: r.email,
      deliveryEmail: r.delivery_email,
      apiKey: r.api_key,
      passwordHash: r.password_hash,
      role: r.role,
      isActive: r.is_active,
      isBot: r.is_bot,
      botType: r.bot_type,
      realmDeactivated: r.realm_deactivated,
      passwordAuthEnabled: r.password_auth_enabled,
      settingsVersion: Number(r.settings_version),
    };
  }

  async list(realmId: number): Promise<UserRecord[]> {
    const rows: UserSqlRow[] = await this.ds.query(`${USER_SELECT} WHERE realm_id = $1 AND NOT is_system_bot ORDER BY id`, [realmId]);
    return rows.map(toUser);
  }

  async get(realmId: number, userId: number): Promise<UserRecord | null> {
    const [row]: UserSqlRow[] = await this.ds.query(`${USER_SELECT} WHERE realm_id = $1 AND id = $2`, [realmId, userId]);
    return row ? toUser(row) : null;
  }

  async findByDeliveryEmail(realmId: number, email: string, visibilities: readonly number[]): Promise<UserRecord | null> {
    const [row]: UserSqlRow[] = await this.ds.query(
      `${USER_SELECT} WHERE realm_id = $1 AND lower(delivery_email) = lower($2) AND email_address_visibility = ANY($3::smallint[])`,
      [realmId, email.trim(), visibilities],
    );
    return row ? toUser(row) : null;
  }

  async maxMessageId(userId: number): Promise<number> {
    const [row]: { id: number | null }[] = await this.ds.query(`SELECT max(message_id) AS id FROM user_messages WHERE user_id = $1`, [userId]);
    return row?.id ?? -1;
  }

  async ownProfile(realmId: number, userId: number): Promise<{ user: UserRecord; profileValues: ProfileValueRecord[]; maxMessageId: number } | null> {
    const [row]: OwnProfileRow[] = await this.ds.query(
      `SELECT u.*,
         (SELECT max(um.message_id) FROM user_messages um WHERE um.user_id = u.id) AS max_message_id,
         (SELECT coalesce(json_agg(json_build_object('user_id', v.user_id, 'field_id', v.field_id, 'value', v.value, 'rendered_value', v.rendered_value)
                                   ORDER BY f.ordering, f.id), '[]')
            FROM custom_profile_field_values v JOIN custom_profile_fields f ON f.id = v.field_id
           WHERE v.realm_id = u.realm_id AND v.user_id = u.id) AS profile_values
       FROM (${USER_SELECT} WHERE realm_id = $1 AND id = $2) u`,
      [realmId, userId],
    );
    if (!row) return null;
    const { max_message_id: maxId, profile_values: values, ...user } = row;
    return {
      user: toUser(user),
      profileValues: values.map(toValue),
      maxMessageId: maxId ?? -1,
    };
  }

  async systemBots(realmId: number): Promise<UserRecord[]> {
    const rows: UserSqlRow[] = await this.ds.query(`${USER_SELECT} WHERE realm_id = $1 AND is_system_bot ORDER BY id`, [realmId]);
    return rows.map(toUser);
  }

  async directory(realmId: number): Promise<UserDirectory> {
    const rows: DirectoryRow[] = await this.ds.query(
      `SELECT u.*,
         (SELECT json_agg(json_build_object('user_id', v.user_id, 'field_id', v.field_id, 'value', v.value, 'rendered_value', v.rendered_value)
                          ORDER BY f.ordering, f.id)
            FROM custom_profile_field_values v JOIN custom_profile_fields f ON f.id = v.field_id
           WHERE v.realm_id = u.realm_id AND v.user_id = u.id) AS profile_values
       FROM (${USER_SELECT} WHERE realm_id = $1) u ORDER BY u.id`,
      [realmId],
    );
    const out: UserDirectory = { users: [], systemBots: [], profileValues: new Map() };
    for (const { profile_values: values, ...row } of rows) {
      const user = toUser(row);
      (user.isSystemBot ? out.systemBots : out.users).push(user);
      if (values !== null) out.profileValues.set(user.id, values.map(toValue));
    }
    return out;
  }

  async listGroups(realmId: number, includeDeactivated: boolean): Promise<UserGroupView[]> {
    const rows: GroupSettingsRow[] = await this.ds.query(GROUPS_WITH_MEMBERS_SQL, [realmId]);
    const byId = new Map(rows.map((g) => [g.id, g]));
    return rows
      .filter((g) => g.name !== null && (includeDeactivated || !g.deactivated))
      .map((g) => ({
        id: g.id,
        name: g.name!,
        description: g.description,
        creatorId: g.creator_id,
        dateCreated: g.date_created,
        isSystemGroup: g.is_system_group,
        deactivated: g.deactivated,
        members: g.members,
        directSubgroupIds: g.subgroups,
        settings: Object.fromEntries(
          USER_GROUP_SETTING_NAMES.map((s) => [s, settingValueFrom(byId, g[`${s}_id`])]),
        ),
      }));
  }
}
