import type { Actor } from '@app/domain/users';
import { Injectable } from '@nestjs/common';
import { PresenceService } from '../../presence/index.js';
import { RealmQueries } from '../../realm/index.js';
import { OrganizationSettingsCache } from '../../shared/application/settings-cache.js';
import type { RegisterSnapshot } from './register-sections.js';

/**
 * POST /register's `presence` section: `presences`, `presence_last_update_id` and
 * `server_timestamp`. The modern format when the client asked for slim_presence or declared
 * simplified_presence_events (Zulip's fetch_initial_state_data).
 */
@Injectable()
export class PresenceSection {
  constructor(
    private readonly presence: PresenceService,
    private readonly realms: RealmQueries,
    private readonly cache: OrganizationSettingsCache,
  ) {}

  async fill(
    actor: Actor,
    want: (s: string) => boolean,
    o: { slimPresence: boolean; simplifiedPresenceEvents: boolean; historyLimitDays: number | null },
    state: Record<string, unknown>,
    read: RegisterSnapshot,
  ): Promise<void> {
    if (!want('presence')) return;
    // The realms row is versioned: the settings cache has it at the register's version or newer.
    const realm = await this.cache.at(actor.realmId, read.settingsVersion).value('realm', () => this.realms.get(actor.realmId));
    const fetched = await this.presence.realmPresences(actor, {
      realmPresenceDisabled: realm.presenceDisabled,
      slim: o.slimPresence || o.simplifiedPresenceEvents,
      lastUpdateId: null,
      historyLimitDays: o.historyLimitDays,
    });
    state.presences = fetched.presences;
    state.presence_last_update_id = fetched.presence_last_update_id;
    state.server_timestamp = fetched.server_timestamp;
  }
}
