import { type MentionSyntax, type ResolvedMentions } from '@app/domain/messages';
import { Injectable } from '@nestjs/common';
import type { Tx } from '../../shared/application/unit-of-work.js';
import type { MentionCandidates } from './message.ports.js';
import type { MentionTargets } from './message-renderer.js';

export interface MentionResolution {
  /** For the Message aggregate: who is mentioned, which groups loudly. */
  mentions: ResolvedMentions;
  /** For the renderer. */
  targets: MentionTargets;
  candidates: MentionCandidates;
}

/**
 * Resolves a message's mention syntax to users and groups inside the caller's transaction
 * (a collaborator of the send and edit use cases, not a use case of its own). Whether the
 * sender may mention a group is the aggregate's rule.
 */
@Injectable()
export class MentionResolver {
  async resolve(tx: Tx, realmId: number, syntax: MentionSyntax): Promise<MentionResolution> {
    const candidates = await tx.conversations.mentionCandidates(
      realmId,
      [...syntax.userNames, ...syntax.silentUserNames],
      [...syntax.userIds, ...syntax.silentUserIds],
      [...syntax.groupNames, ...syntax.silentGroupNames],
    );
    const nameCounts = new Map<string, number>();
    for (const u of candidates.users) nameCounts.set(u.fullName.toLowerCase(), (nameCounts.get(u.fullName.toLowerCase()) ?? 0) + 1);
    const usersByName = new Map(candidates.users.filter((u) => nameCounts.get(u.fullName.toLowerCase()) === 1).map((u) => [u.fullName.toLowerCase(), u]));
    const usersById = new Map(candidates.users.map((u) => [u.id, u]));
    const groupsByName = new Map(candidates.groups.map((g) => [g.name, g]));
    const loud = candidates.groups.filter((g) => syntax.groupNames.includes(g.name));
    const canMention = loud.length > 0 ? await tx.groups.settingValuesOf(loud.map((g) => g.canMentionGroupId)) : new Map();
    const direct = [
      ...syntax.userIds.filter((id) => usersById.has(id)),
      ...syntax.userNames.map((n) => usersByName.get(n)?.id).filter((id): id is number => id !== undefined),
    ];
    const viaGroups = await tx.conversations.groupMembers(loud.map((g) => g.id));
    return {
      mentions: {
        syntax,
        mentionedUserIds: [...new Set([...direct, ...viaGroups])],
        loudGroups: loud.map((g) => ({ name: g.name, canMention: canMention.get(g.canMentionGroupId)! })),
      },
      targets: { usersByName, usersById, groupsByName },
      candidates,
    };
  }
}
