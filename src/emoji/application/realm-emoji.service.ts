import { checkValidEmojiName, customEmojiAlreadyExists, customEmojiNotFound } from '@app/domain/emoji';
import type { Actor } from '@app/domain/users';
import { Injectable } from '@nestjs/common';
import { UnitOfWork } from '../../shared/application/unit-of-work.js';
import { RealmEmojiQueries, type RealmEmojiRecord } from './realm-emoji.ports.js';

export interface NewRealmEmoji {
  realmId: number;
  /** The uploader (null: added by the system, e.g. an import). */
  authorId: number | null;
  /** Already stripped with spaces turned into `_`, as the upload endpoint does. */
  name: string;
  /**
   * The stored file's name, derived from the new emoji's ID (Zulip salts and hashes the ID and
   * appends the image's extension); the caller stores the image under it.
   */
  fileName: (id: number) => string;
  isAnimated?: boolean;
}

/** Custom emoji: the list, and the writes the upload and delete endpoints build on. */
@Injectable()
export class RealmEmojiService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly queries: RealmEmojiQueries,
  ) {}

  /** GET /realm/emoji: every custom emoji of the caller's organization, deactivated ones included. */
  list(actor: Actor): Promise<RealmEmojiRecord[]> {
    return this.queries.list(actor.realmId);
  }

  /**
   * Adds a custom emoji (Zulip's check_add_realm_emoji) and returns its ID. Checks the name and
   * that no active emoji has it; who may add emoji, overriding a built-in name and the image
   * itself are the upload endpoint's checks, made before calling this.
   */
  async addRealmEmoji(e: NewRealmEmoji): Promise<number> {
    checkValidEmojiName(e.name);
    return this.uow.run(async (tx) => {
      if ((await tx.realmEmoji.lockActiveNamed(e.realmId, e.name)) !== null) throw customEmojiAlreadyExists();
      const id = await tx.realmEmoji.insert({ realmId: e.realmId, name: e.name, authorId: e.authorId });
      await tx.realmEmoji.finishUpload(e.realmId, id, e.fileName(id), e.isAnimated ?? false);
      return id;
    });
  }

  /** Deactivates the active custom emoji of that name (Zulip's do_remove_realm_emoji). */
  async deactivateRealmEmoji(realmId: number, name: string): Promise<void> {
    await this.uow.run(async (tx) => {
      const id = await tx.realmEmoji.lockActiveNamed(realmId, name);
      if (id === null) throw customEmojiNotFound(name);
      await tx.realmEmoji.deactivate(realmId, id);
    });
  }
}
