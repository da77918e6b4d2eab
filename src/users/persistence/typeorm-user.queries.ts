import { USER_GROUP_SETTING_NAMES } from '@app/domain/realm';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { ProfileValueRecord } from '../application/custom-profile-fields.ports.js';
import { type Credentials, type UserDirectory, type UserGroupView, UserQueries, type UserRecord } from '../application/user.ports.js';
import { UserRow } from './user.row.js';
import { toValue } from './typeorm-custom-profile-field.repository.js';
import { toRecord } from './typeorm-user.repository.js';
import { camelRow } from '../../shared/persistence/rows.js';
import {
  type GroupRowWithMembers,
  GROUPS_WITH_MEMBERS_SQL,
  settingValueFrom,
} from '../../shared/persistence/group-setting-values.js';

/** Every column but the secrets (password hash, API key). */
const USER_SELECT = `SELECT id, realm_id, email, delivery_email, full_name, role, is_active, is_bot, bot_type,
  bot_owner_id, is_system_bot, date_joined, timezone, avatar_version, avatar_path, default_sending_stream_id,
  default_events_register_stream_id, default_all_public_streams, email_address_visibility FROM users`;

@Injectable()
export class TypeOrmUserQueries extends UserQueries {
  constructor(private readonly ds: DataSource) {
    super();
  }

  async credentialsByEmail(realmId: number, email: string): Promise<Credentials | null> {
    const rows = await this.ds.query(
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
    const rows = await this.ds.query(`${USER_SELECT} WHERE realm_id = $1 AND NOT is_system_bot ORDER BY id`, [realmId]);
    return rows.map((r: Record<string, unknown>) => toRecord(camelRow<UserRow>(r)));
  }

  async get(realmId: number, userId: number): Promise<UserRecord | null> {
    const [row] = await this.ds.query(`${USER_SELECT} WHERE realm_id = $1 AND id = $2`, [realmId, userId]);
    return row ? toRecord(camelRow<UserRow>(row)) : null;
  }

  async findByDeliveryEmail(realmId: number, email: string, visibilities: readonly number[]): Promise<UserRecord | null> {
    const [row] = await this.ds.query(
      `${USER_SELECT} WHERE realm_id = $1 AND lower(delivery_email) = lower($2) AND email_address_visibility = ANY($3::smallint[])`,
      [realmId, email.trim(), visibilities],
    );
    return row ? toRecord(camelRow<UserRow>(row)) : null;
  }

  async maxMessageId(userId: number): Promise<number> {
    const [row] = await this.ds.query(`SELECT max(message_id) AS id FROM user_messages WHERE user_id = $1`, [userId]);
    return row?.id ?? -1;
  }

  async ownProfile(realmId: number, userId: number): Promise<{ user: UserRecord; profileValues: ProfileValueRecord[]; maxMessageId: number } | null> {
    const [row] = await this.ds.query(
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
      user: toRecord(camelRow<UserRow>(user)),
      profileValues: (values as Record<string, unknown>[]).map(toValue),
      maxMessageId: maxId ?? -1,
    };
  }

  async systemBots(realmId: number): Promise<UserRecord[]> {
    const rows = await this.ds.query(`${USER_SELECT} WHERE realm_id = $1 AND is_system_bot ORDER BY id`, [realmId]);
    return rows.map((r: Record<string, unknown>) => toRecord(camelRow<UserRow>(r)));
  }

  async directory(realmId: number): Promise<UserDirectory> {
    const rows: Record<string, unknown>[] = await this.ds.query(
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
      const user = toRecord(camelRow<UserRow>(row));
      (user.isSystemBot ? out.systemBots : out.users).push(user);
      if (values !== null) out.profileValues.set(user.id, (values as Record<string, unknown>[]).map(toValue));
    }
    return out;
  }

  async listGroups(realmId: number, includeDeactivated: boolean): Promise<UserGroupView[]> {
    const rows: GroupRowWithMembers[] = await this.ds.query(GROUPS_WITH_MEMBERS_SQL, [realmId]);
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
          USER_GROUP_SETTING_NAMES.map((s) => [s, settingValueFrom(byId, g[`${s}_id`] as number)]),
        ),
      }));
  }
}
