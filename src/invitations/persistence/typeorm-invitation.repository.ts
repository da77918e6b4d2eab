import {
  Invitation,
  type InvitationState,
  type InvitationStatus,
  MultiuseInvite,
  type MultiuseInviteState,
} from '@app/domain/invitations';
import type { Role } from '@app/domain/users';
import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { InvitationQueries, InvitationRepository } from '../application/invitation.ports.js';

/** Namespace of the advisory locks that serialise one organization's invitations. */
const INVITES_LOCK = 0x5ec0002;

/** The columns `invitations` and `multiuse_invites` share (smallint codes typed by their meaning). */
interface TermsRow {
  id: number;
  realm_id: number;
  referred_by_id: number;
  invited_as: Role;
  channel_ids: number[];
  group_ids: number[];
  include_realm_default_subscriptions: boolean;
  welcome_message_custom_text: string | null;
  expiry_date: Date | null;
  status: InvitationStatus;
}
/** An `invitations` row (SELECT *). */
interface InvitationRow extends TermsRow {
  email: string;
  notify_referrer_on_join: boolean;
  invited_at: Date;
  confirmation_key: string;
}
/** A `multiuse_invites` row (SELECT *). */
interface MultiuseRow extends TermsRow {
  date_created: Date;
  confirmation_key: string | null;
}

function terms(r: TermsRow) {
  return {
    id: r.id,
    realmId: r.realm_id,
    referredById: r.referred_by_id,
    invitedAs: r.invited_as,
    channelIds: r.channel_ids,
    groupIds: r.group_ids,
    includeRealmDefaultSubscriptions: r.include_realm_default_subscriptions,
    welcomeMessageCustomText: r.welcome_message_custom_text,
    expiresAt: r.expiry_date,
    status: r.status,
  };
}

const toInvitation = (r: InvitationRow): InvitationState => ({
  ...terms(r),
  email: r.email,
  notifyReferrerOnJoin: r.notify_referrer_on_join,
  invitedAt: r.invited_at,
  confirmationKey: r.confirmation_key,
});

const toMultiuse = (r: MultiuseRow): MultiuseInviteState => ({ ...terms(r), createdAt: r.date_created, confirmationKey: r.confirmation_key });

/** "Still usable" in SQL: pending, and no expiry or not yet past it. */
const PENDING = `status = 0 AND (expiry_date IS NULL OR expiry_date >= $2)`;

export class TypeOrmInvitationRepository extends InvitationRepository {
  constructor(private readonly em: EntityManager) {
    super();
  }

  async lockRealmInvites(realmId: number): Promise<void> {
    await this.em.query(`SELECT pg_advisory_xact_lock($1, $2)`, [INVITES_LOCK, realmId]);
  }

  async sentSince(realmId: number, since: Date): Promise<number> {
    const [row]: { n: number }[] = await this.em.query(
      `SELECT coalesce(sum(count), 0)::int AS n FROM invitation_sends WHERE realm_id = $1 AND sent_at > $2`,
      [realmId, since],
    );
    return row.n;
  }

  async recordSent(realmId: number, count: number, at: Date): Promise<void> {
    if (count === 0) return;
    await this.em.query(`INSERT INTO invitation_sends (realm_id, sent_at, count) VALUES ($1, $2, $3)`, [realmId, at, count]);
  }

  async insert(invitation: Invitation): Promise<number> {
    const s = invitation.snapshot();
    const [row]: { id: number }[] = await this.em.query(
      `INSERT INTO invitations (realm_id, email, referred_by_id, invited_as, channel_ids, group_ids,
         include_realm_default_subscriptions, notify_referrer_on_join, welcome_message_custom_text,
         invited_at, expiry_date, confirmation_key, status)
       VALUES ($1, $2, $3, $4, $5::int[], $6::int[], $7, $8, $9, $10, $11, $12, $13) RETURNING id`,
      [
        s.realmId,
        s.email,
        s.referredById,
        s.invitedAs,
        s.channelIds,
        s.groupIds,
        s.includeRealmDefaultSubscriptions,
        s.notifyReferrerOnJoin,
        s.welcomeMessageCustomText,
        s.invitedAt,
        s.expiresAt,
        s.confirmationKey,
        s.status,
      ],
    );
    return row.id;
  }

  async find(realmId: number, invitationId: number): Promise<Invitation | null> {
    const [row]: InvitationRow[] = await this.em.query(`SELECT * FROM invitations WHERE realm_id = $1 AND id = $2 FOR UPDATE`, [realmId, invitationId]);
    return row === undefined ? null : Invitation.restore(toInvitation(row));
  }

  async delete(realmId: number, invitationId: number): Promise<void> {
    await this.em.query(`DELETE FROM invitations WHERE realm_id = $1 AND id = $2`, [realmId, invitationId]);
  }

  async findByKey(realmId: number, confirmationKey: string): Promise<Invitation | null> {
    const [row]: InvitationRow[] = await this.em.query(`SELECT * FROM invitations WHERE realm_id = $1 AND confirmation_key = $2 FOR UPDATE`, [
      realmId,
      confirmationKey,
    ]);
    return row === undefined ? null : Invitation.restore(toInvitation(row));
  }

  async save(invitation: Invitation): Promise<void> {
    const s = invitation.snapshot();
    await this.em.query(`UPDATE invitations SET status = $3 WHERE realm_id = $1 AND id = $2`, [s.realmId, s.id, s.status]);
  }

  async revokePendingFor(realmId: number, email: string): Promise<void> {
    await this.em.query(`UPDATE invitations SET status = 2 WHERE realm_id = $1 AND lower(email) = lower($2) AND status = 0`, [realmId, email]);
  }

  async findMultiuseByKey(realmId: number, confirmationKey: string): Promise<MultiuseInvite | null> {
    const [row]: MultiuseRow[] = await this.em.query(`SELECT * FROM multiuse_invites WHERE realm_id = $1 AND confirmation_key = $2 FOR SHARE`, [
      realmId,
      confirmationKey,
    ]);
    return row === undefined ? null : MultiuseInvite.restore(toMultiuse(row));
  }

  async insertMultiuse(invite: MultiuseInvite): Promise<number> {
    const s = invite.snapshot();
    const [row]: { id: number }[] = await this.em.query(
      `INSERT INTO multiuse_invites (realm_id, referred_by_id, invited_as, channel_ids, group_ids,
         include_realm_default_subscriptions, welcome_message_custom_text, date_created, expiry_date,
         confirmation_key, status)
       VALUES ($1, $2, $3, $4::int[], $5::int[], $6, $7, $8, $9, $10, $11) RETURNING id`,
      [
        s.realmId,
        s.referredById,
        s.invitedAs,
        s.channelIds,
        s.groupIds,
        s.includeRealmDefaultSubscriptions,
        s.welcomeMessageCustomText,
        s.createdAt,
        s.expiresAt,
        s.confirmationKey,
        s.status,
      ],
    );
    return row.id;
  }

  async findMultiuse(realmId: number, inviteId: number): Promise<MultiuseInvite | null> {
    const [row]: MultiuseRow[] = await this.em.query(`SELECT * FROM multiuse_invites WHERE realm_id = $1 AND id = $2 FOR UPDATE`, [realmId, inviteId]);
    return row === undefined ? null : MultiuseInvite.restore(toMultiuse(row));
  }

  async saveMultiuse(invite: MultiuseInvite): Promise<void> {
    const s = invite.snapshot();
    await this.em.query(`UPDATE multiuse_invites SET status = $3, confirmation_key = $4 WHERE realm_id = $1 AND id = $2`, [
      s.realmId,
      s.id,
      s.status,
      s.confirmationKey,
    ]);
  }
}

@Injectable()
export class TypeOrmInvitationQueries extends InvitationQueries {
  constructor(private readonly ds: DataSource) {
    super();
  }

  async byKey(realmId: number, confirmationKey: string): Promise<InvitationState | MultiuseInviteState | null> {
    const [invitation]: InvitationRow[] = await this.ds.query(`SELECT * FROM invitations WHERE realm_id = $1 AND confirmation_key = $2`, [
      realmId,
      confirmationKey,
    ]);
    if (invitation !== undefined) return toInvitation(invitation);
    const [multiuse]: MultiuseRow[] = await this.ds.query(`SELECT * FROM multiuse_invites WHERE realm_id = $1 AND confirmation_key = $2`, [
      realmId,
      confirmationKey,
    ]);
    return multiuse === undefined ? null : toMultiuse(multiuse);
  }

  async pending(realmId: number, referredById: number | null, now: Date): Promise<InvitationState[]> {
    const rows: InvitationRow[] = await this.ds.query(
      `SELECT * FROM invitations WHERE realm_id = $1 AND ${PENDING} AND ($3::int IS NULL OR referred_by_id = $3) ORDER BY id`,
      [realmId, now, referredById],
    );
    return rows.map(toInvitation);
  }

  async pendingMultiuse(realmId: number, referredById: number | null, now: Date): Promise<MultiuseInviteState[]> {
    const rows: MultiuseRow[] = await this.ds.query(
      `SELECT * FROM multiuse_invites WHERE realm_id = $1 AND ${PENDING} AND ($3::int IS NULL OR referred_by_id = $3) ORDER BY id`,
      [realmId, now, referredById],
    );
    return rows.map(toMultiuse);
  }
}
