import { type Actor, assertAllKeysRemoved, assertStorageFits, pickStoredEntries } from '@app/domain/users';
import { Injectable } from '@nestjs/common';
import { UnitOfWork } from '../../shared/application/unit-of-work.js';
import { ServerConfig } from '../../shared/config/server-config.js';
import { BotStorageQueries } from './bot-storage.ports.js';

/**
 * A bot's own key/value storage (Zulip's zerver/views/storage.py, zerver/lib/bot_storage.py);
 * the caller is a bot (checked before the parameters, see BotStorageController).
 */
@Injectable()
export class BotStorageService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly queries: BotStorageQueries,
    private readonly config: ServerConfig,
  ) {}

  /** GET /bot_storage: the entries named (each must exist), or all of them when `keys` is null. */
  async getStorage(actor: Actor, keys: readonly string[] | null): Promise<[string, string][]> {
    const stored = await this.queries.entries(actor.realmId, actor.userId, keys);
    return keys === null ? stored : pickStoredEntries(new Map(stored), keys);
  }

  /** PUT /bot_storage: stores the entries, all or none, within USER_STATE_SIZE_LIMIT. */
  async updateStorage(actor: Actor, entries: readonly (readonly [string, string])[]): Promise<void> {
    await this.uow.run(async (tx) => {
      await tx.botStorage.lock(actor.realmId, actor.userId);
      const sizes = await tx.botStorage.sizes(actor.realmId, actor.userId, entries.map(([key]) => key));
      assertStorageFits(sizes, entries, this.config.userStateSizeLimit);
      await tx.botStorage.put(actor.realmId, actor.userId, entries);
    });
  }

  /** DELETE /bot_storage: removes the keys named (every one must exist, else nothing goes), or everything when `keys` is null. */
  async removeStorage(actor: Actor, keys: readonly string[] | null): Promise<void> {
    await this.uow.run(async (tx) => {
      const removed = await tx.botStorage.remove(actor.realmId, actor.userId, keys);
      if (keys !== null) assertAllKeysRemoved(removed, keys);
    });
  }
}
