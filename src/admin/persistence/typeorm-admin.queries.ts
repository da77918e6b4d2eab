import type { Actor, Role } from '@app/domain/users';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AdminQueries, type AdminUserRef, type OrganizationSummary } from '../application/admin.ports.js';

const ORGANIZATION_COLUMNS = `r.id, r.string_id, r.name, r.deactivated, r.date_created,
  (SELECT count(*)::int FROM users u WHERE u.realm_id = r.id AND u.is_active AND NOT u.is_bot) AS active_humans`;

const toSummary = (r: Record<string, unknown>): OrganizationSummary => ({
  id: r.id as number,
  subdomain: r.string_id as string,
  name: r.name as string,
  deactivated: r.deactivated as boolean,
  dateCreated: r.date_created as Date,
  activeHumans: r.active_humans as number,
});

@Injectable()
export class TypeOrmAdminQueries extends AdminQueries {
  constructor(private readonly ds: DataSource) {
    super();
  }

  async organizations(): Promise<OrganizationSummary[]> {
    return (await this.ds.query(`SELECT ${ORGANIZATION_COLUMNS} FROM realms r ORDER BY r.id`)).map(toSummary);
  }

  async organizationBySubdomain(subdomain: string): Promise<OrganizationSummary | null> {
    const [row] = await this.ds.query(`SELECT ${ORGANIZATION_COLUMNS} FROM realms r WHERE r.string_id = $1`, [subdomain]);
    return row === undefined ? null : toSummary(row);
  }

  async actingOwner(realmId: number): Promise<Actor | null> {
    const [row] = await this.ds.query(
      `SELECT id, email, role, bot_type FROM users
       WHERE realm_id = $1 AND role = 100 AND is_active AND NOT is_bot ORDER BY id LIMIT 1`,
      [realmId],
    );
    return row === undefined ? null : { userId: row.id, realmId, email: row.email, role: row.role as Role, isBot: false, botType: null };
  }

  async userByEmail(realmId: number, email: string): Promise<AdminUserRef | null> {
    const [row] = await this.ds.query(
      `SELECT id, email, role, is_active, is_bot FROM users WHERE realm_id = $1 AND lower(delivery_email) = lower($2) ORDER BY id LIMIT 1`,
      [realmId, email],
    );
    return row === undefined ? null : { id: row.id, email: row.email, role: row.role as Role, isActive: row.is_active, isBot: row.is_bot };
  }

  async latestEmail(kind: string, to: string): Promise<{ id: number; status: string; lastError: string | null } | null> {
    const [row] = await this.ds.query(
      `SELECT id, status, last_error FROM email_outbox WHERE kind = $1 AND to_address = $2 ORDER BY id DESC LIMIT 1`,
      [kind, to],
    );
    return row === undefined ? null : { id: Number(row.id), status: row.status, lastError: row.last_error };
  }
}
