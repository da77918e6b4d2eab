import { CHANNEL_GROUP_SETTINGS, type ChannelGroupSettingName, holds, type Viewer } from '@app/domain/channels';
import { badRequest } from '@app/domain/shared';
import { type Actor, type GroupSettingValue, isAdmin, noSuchUser } from '@app/domain/users';
import { assertValidGroupSetting } from '../../shared/application/group-setting-store.js';
import type { Tx } from '../../shared/application/unit-of-work.js';
import type { UserRecord } from '../../users/index.js';

/** What the channel rules need about the caller and the organization, resolved once per use case. */
export interface ActorFacts {
  viewer: Viewer;
  realmSettings: Record<string, GroupSettingValue>;
  systemGroups: Map<string, number>;
  webPublicEnabled: boolean;
}

/** `webPublicStreamsEnabled`: the server switch (the organization's spectator access is read here). */
export async function loadActorFacts(tx: Tx, actor: Actor, webPublicStreamsEnabled: boolean): Promise<ActorFacts> {
  // One connection per transaction: its queries run one after the other. From the settings cache
  // when the actor's settings version is known (shared values: never modify them).
  const groupIds = await tx.groups.groupIdsOfUser(actor.userId, actor);
  const realmSettings = await tx.realms.groupSettings(actor.realmId, actor);
  const systemGroups = await tx.groupSettings.systemGroupIds(actor.realmId, actor);
  const realm = await tx.realms.get(actor.realmId, actor);
  return {
    viewer: { userId: actor.userId, role: actor.role, groupIds },
    realmSettings,
    systemGroups,
    webPublicEnabled: webPublicStreamsEnabled && realm.enableSpectatorAccess,
  };
}

/** The caller holds the organization's group setting `setting`. */
export const holdsRealmSetting = (facts: ActorFacts, setting: string): boolean => holds(facts.viewer, facts.realmSettings[setting]);

export const canSetTopicsPolicy = (facts: ActorFacts): boolean =>
  isAdmin(facts.viewer.role) || holdsRealmSetting(facts, 'can_set_topics_policy_group');

export const canSetDeleteMessagePolicy = (facts: ActorFacts): boolean =>
  isAdmin(facts.viewer.role) || holdsRealmSetting(facts, 'can_set_delete_message_policy_group');

function checkPrincipal(u: UserRecord | undefined): UserRecord {
  if (u === undefined || u.isSystemBot) throw noSuchUser();
  if (!u.isActive) throw badRequest('User is deactivated');
  return u;
}

/** Users named by `principals` (ids or emails), without repeats; unknown → No such user, deactivated → User is deactivated. */
export async function resolvePrincipals(tx: Tx, realmId: number, principals: readonly number[] | readonly string[]): Promise<UserRecord[]> {
  const out: UserRecord[] = [];
  if (principals.length > 0 && typeof principals[0] === 'number') {
    const ids = principals as readonly number[];
    const found = await tx.users.findManyByIds(realmId, ids);
    for (const id of ids) out.push(checkPrincipal(found.get(id)));
  } else {
    const emails = principals as readonly string[];
    const found = await tx.users.findManyByApiEmails(realmId, emails);
    for (const e of emails) out.push(checkPrincipal(found.get(e.trim().toLowerCase())));
  }
  return [...new Map(out.map((u) => [u.id, u])).values()];
}

/** A channel permission setting's value is one the setting accepts (01 §8.1). */
export async function validateChannelGroupSetting(tx: Tx, realmId: number, name: ChannelGroupSettingName, value: GroupSettingValue): Promise<void> {
  await assertValidGroupSetting(tx.groupSettings, realmId, name, value, CHANNEL_GROUP_SETTINGS[name].config);
}
