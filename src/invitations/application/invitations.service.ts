import { pairKey } from '@app/domain/channels';
import {
  assertCanInviteAs,
  assertCanInviteToChannels,
  assertCanInviteToGroup,
  assertCanManageInvitation,
  assertCanSetWelcomeText,
  assertOldEnoughToInvite,
  assertWithinDailyLimit,
  expiryDate,
  Invitation,
  invitationFailed,
  type InvitationState,
  type InvitationTerms,
  type InviteChannel,
  MultiuseInvite,
  type MultiuseInviteState,
  noEmailAddresses,
  noSuchInvitation,
  parseInviteeEmails,
  planInvitations,
  SOME_ALREADY_USING,
} from '@app/domain/invitations';
import { insufficientPermission } from '@app/domain/shared';
import { type Actor, isAdmin, type Role } from '@app/domain/users';
import { Injectable } from '@nestjs/common';
import { RealmQueries } from '../../realm/index.js';
import { AccountRules } from '../../shared/application/account-rules.js';
import { Clock } from '../../shared/application/clock.js';
import { isStorableId } from '../../shared/application/ids.js';
import { Secrets } from '../../shared/application/secrets.js';
import { type Tx, UnitOfWork } from '../../shared/application/unit-of-work.js';
import { ServerConfig } from '../../shared/config/server-config.js';
import { SettingHolder } from '../../users/index.js';
import { InvitationQueries } from './invitation.ports.js';
import { invitationEmail, invitationUrl, multiuseInviteUrl } from './invitation-email.js';

/** What both kinds of invitation ask for (spec 21 §2.1 and §3). */
export interface InvitationOptions {
  streamIds: number[];
  groupIds: number[];
  inviteAs: number;
  /** undefined: the server default (INVITATION_LINK_VALIDITY_MINUTES); null: never expires. */
  expiresInMinutes: number | null | undefined;
  includeRealmDefaultSubscriptions: boolean;
  welcomeMessageCustomText: string | undefined;
}

export interface InviteUsersRequest extends InvitationOptions {
  inviteeEmails: string;
  notifyReferrerOnJoin: boolean;
}

export interface InvitationList {
  invitations: InvitationState[];
  multiuse: (MultiuseInviteState & { linkUrl: string })[];
}

const DAY_MS = 86_400_000;

@Injectable()
export class InvitationsService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly queries: InvitationQueries,
    private readonly realms: RealmQueries,
    private readonly clock: Clock,
    private readonly secrets: Secrets,
    private readonly config: ServerConfig,
    private readonly rules: AccountRules,
  ) {}

  /** POST /invites (spec 21 §2): emails one invitation per new address. */
  async inviteUsers(actor: Actor, req: InviteUsersRequest): Promise<void> {
    const skipped = await this.uow.run(async (tx) => {
      const realmId = actor.realmId;
      const expiresInMinutes = this.expiry(req);
      const holder = new SettingHolder(actor, tx.realms, tx.groups);
      if (!(await holder.holdsRealmSetting('can_invite_users_group'))) throw insufficientPermission();
      assertCanInviteAs(actor.role, req.inviteAs);
      if (req.inviteeEmails === '') throw noEmailAddresses();
      const emails = parseInviteeEmails(req.inviteeEmails);
      await this.checkTargets(tx, actor, holder, req);

      const now = this.clock.now();
      await tx.invitations.lockRealmInvites(realmId);
      const sentToday = await tx.invitations.sentSince(realmId, new Date(now.getTime() - DAY_MS));
      assertWithinDailyLimit(emails.length, sentToday, this.config.invitesDailyMax);
      const realm = await tx.realms.get(realmId);
      const inviter = (await tx.users.findById(realmId, actor.userId))!;
      assertOldEnoughToInvite({
        inviteRequired: realm.inviteRequired,
        inviterRole: actor.role,
        dateJoined: inviter.dateJoined,
        now,
        minAgeDays: this.config.invitesMinUserAgeDays,
      });

      const existing = await tx.users.findManyByEmails(realmId, emails.filter((e) => e !== ''));
      const plan = planInvitations(emails, { ...realm, domains: await tx.realms.domains(realmId) }, (d) => this.rules.isDisposableDomain(d), existing);

      const realmUrl = this.config.realmUrl(realm.stringId);
      const terms = this.terms(req);
      for (const email of plan.toInvite) {
        const invitation = Invitation.create({
          realmId,
          email,
          referredById: actor.userId,
          terms,
          notifyReferrerOnJoin: req.notifyReferrerOnJoin,
          now,
          expiresInMinutes,
          confirmationKey: this.secrets.confirmationKey(),
        });
        await tx.invitations.insert(invitation);
        await tx.emails.send(
          invitationEmail({
            realmId,
            to: email,
            referrerName: inviter.fullName,
            referrerEmail: inviter.deliveryEmail,
            realmName: realm.name,
            activateUrl: invitationUrl(realmUrl, invitation.confirmationKey),
          }),
          now,
        );
      }
      await tx.invitations.recordSent(realmId, plan.toInvite.length, now);
      return plan.skipped;
    });
    // The others were invited (committed); the skipped addresses are reported as an error.
    if (skipped.length > 0) throw invitationFailed(SOME_ALREADY_USING, skipped, true);
  }

  /** POST /invites/multiuse (spec 21 §3): a reusable link under the organization's URL. */
  async createMultiuseInvite(actor: Actor, req: InvitationOptions): Promise<string> {
    return this.uow.run(async (tx) => {
      const expiresInMinutes = this.expiry(req);
      const holder = new SettingHolder(actor, tx.realms, tx.groups);
      if (!(await holder.holdsRealmSetting('create_multiuse_invite_group'))) throw insufficientPermission();
      assertCanInviteAs(actor.role, req.inviteAs);
      await this.checkTargets(tx, actor, holder, req);
      const invite = MultiuseInvite.create({
        realmId: actor.realmId,
        referredById: actor.userId,
        terms: this.terms(req),
        now: this.clock.now(),
        expiresInMinutes,
        confirmationKey: this.secrets.confirmationKey(),
      });
      await tx.invitations.insertMultiuse(invite);
      const realm = await tx.realms.get(actor.realmId);
      return multiuseInviteUrl(this.config.realmUrl(realm.stringId), invite.snapshot().confirmationKey!);
    });
  }

  /** GET /invites: administrators see the organization's pending invitations, others their own. */
  async listInvites(actor: Actor): Promise<InvitationList> {
    const now = this.clock.now();
    const referredBy = isAdmin(actor.role) ? null : actor.userId;
    const invitations = await this.queries.pending(actor.realmId, referredBy, now);
    const multiuse = await this.queries.pendingMultiuse(actor.realmId, referredBy, now);
    const realmUrl = this.config.realmUrl((await this.realms.get(actor.realmId)).stringId);
    return {
      invitations,
      multiuse: multiuse.map((m) => ({ ...m, linkUrl: multiuseInviteUrl(realmUrl, m.confirmationKey!) })),
    };
  }

  /** DELETE /invites/{id}: revoking a single-use invitation deletes it. */
  async revokeInvite(actor: Actor, invitationId: number): Promise<void> {
    await this.uow.run(async (tx) => {
      const invitation = await tx.invitations.find(actor.realmId, invitationId);
      if (invitation === null) throw noSuchInvitation();
      assertCanManageInvitation(actor, invitation);
      await tx.invitations.delete(actor.realmId, invitation.id);
    });
  }

  /** DELETE /invites/multiuse/{id}: the link stops working. */
  async revokeMultiuseInvite(actor: Actor, inviteId: number): Promise<void> {
    await this.uow.run(async (tx) => {
      const invite = await tx.invitations.findMultiuse(actor.realmId, inviteId);
      if (invite === null) throw noSuchInvitation();
      assertCanManageInvitation(actor, invite);
      invite.revoke();
      await tx.invitations.saveMultiuse(invite);
    });
  }

  /** POST /invites/{id}/resend: the same link, emailed again (counts against the daily limit). */
  async resendInvite(actor: Actor, invitationId: number): Promise<void> {
    await this.uow.run(async (tx) => {
      const realmId = actor.realmId;
      const invitation = await tx.invitations.find(realmId, invitationId);
      if (invitation === null) throw noSuchInvitation();
      assertCanManageInvitation(actor, invitation);
      const now = this.clock.now();
      await tx.invitations.lockRealmInvites(realmId);
      assertWithinDailyLimit(1, await tx.invitations.sentSince(realmId, new Date(now.getTime() - DAY_MS)), this.config.invitesDailyMax);
      const realm = await tx.realms.get(realmId);
      const referrer = (await tx.users.findById(realmId, invitation.referredById))!;
      await tx.emails.send(
        invitationEmail({
          realmId,
          to: invitation.email,
          referrerName: referrer.fullName,
          referrerEmail: referrer.deliveryEmail,
          realmName: realm.name,
          activateUrl: invitationUrl(this.config.realmUrl(realm.stringId), invitation.confirmationKey),
        }),
        now,
      );
      await tx.invitations.recordSent(realmId, 1, now);
    });
  }

  private terms(req: InvitationOptions): InvitationTerms {
    return {
      invitedAs: req.inviteAs as Role,
      channelIds: req.streamIds,
      groupIds: req.groupIds,
      includeRealmDefaultSubscriptions: req.includeRealmDefaultSubscriptions,
      welcomeMessageCustomText: req.welcomeMessageCustomText ?? null,
    };
  }

  /** The lifetime asked for (or the server default), checked like a parameter: before anything else. */
  private expiry(req: InvitationOptions): number | null {
    const minutes = req.expiresInMinutes === undefined ? this.config.invitationLinkValidityMinutes : req.expiresInMinutes;
    expiryDate(this.clock.now(), minutes);
    return minutes;
  }

  /** Channels (spec 21 §1.3), then groups (§1.4), then the welcome text (§1.5). */
  private async checkTargets(tx: Tx, actor: Actor, holder: SettingHolder, req: InvitationOptions): Promise<void> {
    const realmId = actor.realmId;
    if (req.streamIds.length > 0) {
      const ids = [...new Set(req.streamIds)].filter(isStorableId);
      const subscriptions = await tx.subscriptions.records([actor.userId], ids);
      const defaults = await tx.channels.defaultChannelIds(realmId);
      const channels = new Map<number, InviteChannel>();
      for (const id of ids) {
        channels.set(id, {
          channel: await tx.channels.findById(realmId, id),
          subscribed: subscriptions.get(pairKey(actor.userId, id))?.active === true,
          isDefault: defaults.has(id),
        });
      }
      const viewer = { userId: actor.userId, role: actor.role, groupIds: await tx.groups.groupIdsOfUser(actor.userId) };
      const realmCanAddSubscribers = await tx.realms.groupSetting(realmId, 'can_add_subscribers_group');
      assertCanInviteToChannels(req.streamIds, channels, viewer, realmCanAddSubscribers);
    }
    for (const groupId of req.groupIds) {
      const group = isStorableId(groupId) ? await tx.groups.find(realmId, groupId, true) : null;
      const candidate = group !== null && group.name !== null && !group.deactivated && !group.isSystemGroup;
      const mayAddMembers =
        candidate &&
        ((await holder.holdsRealmSetting('can_manage_all_groups')) ||
          (await holder.holdsGroup(group.settings.can_manage_group)) ||
          (await holder.holdsGroup(group.settings.can_add_members_group)));
      assertCanInviteToGroup(group, mayAddMembers);
    }
    assertCanSetWelcomeText(actor.role, req.welcomeMessageCustomText);
  }
}
