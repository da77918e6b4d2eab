import { type Actor, type GroupSettingValue, holdsGroupSetting } from '@app/domain/users';
import type { RealmRecord, RealmRepository } from '../../realm/index.js';
import type { TxRepositories } from '../../shared/application/unit-of-work.js';
import type { UserGroupRepository } from './user.ports.js';

/**
 * Resolves "does the actor hold this setting?" into a plain boolean for the domain: the
 * setting's value plus every group the actor belongs to through subgroups.
 */
export class SettingHolder {
  private groupIds: Promise<Set<number>> | null = null;

  constructor(
    private readonly actor: Actor,
    private readonly realms: RealmRepository,
    private readonly groups: UserGroupRepository,
  ) {}

  private actorGroups(): Promise<Set<number>> {
    this.groupIds ??= this.groups.groupIdsOfUser(this.actor.userId, this.actor);
    return this.groupIds;
  }

  async holdsRealmSetting(setting: string): Promise<boolean> {
    return this.holds(await this.realms.groupSetting(this.actor.realmId, setting, this.actor));
  }

  async holds(value: GroupSettingValue): Promise<boolean> {
    return holdsGroupSetting(value, this.actor.userId, await this.actorGroups());
  }

  async holdsGroup(groupId: number | null): Promise<boolean> {
    if (groupId === null) return false;
    return this.holds(await this.groups.settingValue(groupId));
  }
}

/** Everything permission rules need about the caller and the organization, loaded once per use case. */
export interface ActorContext {
  groupIds: Set<number>;
  realmSettings: Record<string, GroupSettingValue>;
  systemGroups: Map<string, number>;
  realm: RealmRecord;
}

/**
 * Loads the context on the transaction's connection (its queries run one after the other), from
 * the settings cache when the actor's settings version is known and the transaction has not
 * written settings yet. The values may be shared with other requests: never modify them.
 */
export async function loadActorContext(tx: TxRepositories, actor: Actor): Promise<ActorContext> {
  const groupIds = await tx.groups.groupIdsOfUser(actor.userId, actor);
  const realmSettings = await tx.realms.groupSettings(actor.realmId, actor);
  const systemGroups = await tx.groupSettings.systemGroupIds(actor.realmId, actor);
  const realm = await tx.realms.get(actor.realmId, actor);
  return { groupIds, realmSettings, systemGroups, realm };
}
