import type { InvitationState, MultiuseInviteState } from '@app/domain/invitations';

const seconds = (d: Date): number => Math.floor(d.getTime() / 1000);
const expiry = (d: Date | null): number | null => (d === null ? null : seconds(d));

/** An entry of GET /invites for a single-use invitation. */
export function presentInvitation(i: InvitationState) {
  return {
    email: i.email,
    invited_by_user_id: i.referredById,
    invited: seconds(i.invitedAt),
    expiry_date: expiry(i.expiresAt),
    id: i.id,
    invited_as: i.invitedAs,
    is_multiuse: false,
    notify_referrer_on_join: i.notifyReferrerOnJoin,
  };
}

/** An entry of GET /invites for a reusable link. */
export function presentMultiuseInvite(m: MultiuseInviteState & { linkUrl: string }) {
  return {
    invited_by_user_id: m.referredById,
    invited: seconds(m.createdAt),
    expiry_date: expiry(m.expiresAt),
    id: m.id,
    link_url: m.linkUrl,
    invited_as: m.invitedAs,
    is_multiuse: true,
  };
}
