import type { Actor, Role } from '@app/domain/users';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AdminQueries, type AdminUserRef, type OrganizationSummary } from '../application/admin.ports.js';

const ORGANIZATION_COLUMNS = `r.id, r.string_id, r.name, r.deactivated, r.date_created,
  (SELECT count(*)::int FROM users u WHERE u.realm_id = r.id AND u.is_active AND NOT u.is_bot) AS active_humans`;

/** A realms row with ORGANIZATION_COLUMNS. */
interface OrganizationRow {
  id: number;
  string_id: string;
  name: string;
  deactivated: boolean;
  date_created: Date;
  active_humans: number;
}

/** The acting owner (users.role is a smallint holding a Role). */
interface OwnerRow {
  id: number;
  email: string;
  role: Role;
  bot_type: number | null;
}

interface AdminUserRow {
  id: number;
  email: string;
  role: Role;
  is_active: boolean;
  is_bot: boolean;
}

/** An email_outbox row's status (id is a bigserial: a string). */
interface OutboxStatusRow {
  id: string;
  status: string;
  last_error: string | null;
}

const toSummary = (r: OrganizationRow): OrganizationSummary => ({
  id: r.id,
  subdomain: r.string_id,
  name: r.name,
  deactivated: r.deactivated,
  dateCreated: r.date_created,
  activeHumans: r.active_humans,
});

@Injectable()
export class TypeOrmAdminQueries extends AdminQueries {
  constructor(private readonly ds: DataSource) {
    super();
  }

  async organizations(): Promise<OrganizationSummary[]> {
    const rows: OrganizationRow[] = await this.ds.query(`SELECT ${ORGANIZATION_COLUMNS} FROM realms r ORDER BY r.id`);
    return rows.map(toSummary);
  }

  async organizationBySubdomain(subdomain: string): Promise<OrganizationSummary | null> {
    const rows: OrganizationRow[] = await this.ds.query(`SELECT ${ORGANIZATION_COLUMNS} FROM realms r WHERE r.string_id = $1`, [subdomain]);
    return rows.length === 0 ? null : toSummary(rows[0]);
  }

  async actingOwner(realmId: number): Promise<Actor | null> {
    const rows: OwnerRow[] = await this.ds.query(
      `SELECT id, email, role, bot_type FROM users
       WHERE realm_id = $1 AND role = 100 AND is_active AND NOT is_bot ORDER BY id LIMIT 1`,
      [realmId],
    );
    if (rows.length === 0) return null;
    const row = rows[0];
    return { userId: row.id, realmId, email: row.email, role: row.role, isBot: false, botType: null };
  }

  async userByEmail(realmId: number, email: string): Promise<AdminUserRef | null> {
    const rows: AdminUserRow[] = await this.ds.query(
      `SELECT id, email, role, is_active, is_bot FROM users WHERE realm_id = $1 AND lower(delivery_email) = lower($2) ORDER BY id LIMIT 1`,
      [realmId, email],
    );
    if (rows.length === 0) return null;
    const row = rows[0];
    return { id: row.id, email: row.email, role: row.role, isActive: row.is_active, isBot: row.is_bot };
  }

  async latestEmail(kind: string, to: string): Promise<{ id: number; status: string; lastError: string | null } | null> {
    const rows: OutboxStatusRow[] = await this.ds.query(
      `SELECT id, status, last_error FROM email_outbox WHERE kind = $1 AND to_address = $2 ORDER BY id DESC LIMIT 1`,
      [kind, to],
    );
    return rows.length === 0 ? null : { id: Number(rows[0].id), status: rows[0].status, lastError: rows[0].last_error };
  }
}
