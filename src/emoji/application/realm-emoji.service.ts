import { randomBytes } from 'node:crypto';
import { open, rm } from 'node:fs/promises';
import {
  assertCanRemoveCustomEmoji,
  assertCanUploadEmoji,
  checkValidEmojiName,
  customEmojiAlreadyExists,
  customEmojiNameOf,
  customEmojiNotFound,
  emojiImageExtension,
} from '@app/domain/emoji';
import { type Actor, holdsGroupSetting, isAdmin } from '@app/domain/users';
import { Injectable } from '@nestjs/common';
import { toEveryone } from '../../shared/application/client-event.js';
import { type Tx, UnitOfWork } from '../../shared/application/unit-of-work.js';
import { EmojiCatalog } from './emoji-catalog.js';
import { EmojiImageStorage, RealmEmojiQueries, type RealmEmojiRecord } from './realm-emoji.ports.js';
import { presentRealmEmojiMap } from './realm-emoji.views.js';

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

/** One part of the multipart body of POST /realm/emoji/{emoji_name}, in a temporary file. */
export interface UploadedEmojiFile {
  tempPath: string;
  size: number;
  contentType: string;
}

/** Zulip's notify_realm_emoji: the organization's whole custom emoji map, to everyone. */
async function notifyRealmEmoji(tx: Tx, realmId: number): Promise<void> {
  const realmEmoji = presentRealmEmojiMap(await tx.realmEmoji.list(realmId));
  tx.afterCommit(toEveryone(realmId, [{ type: 'realm_emoji', op: 'update', realm_emoji: realmEmoji }]));
}

async function fileHead(path: string): Promise<Uint8Array> {
  const file = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(16);
    const { bytesRead } = await file.read(buffer, 0, 16, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await file.close();
  }
}

/** Custom emoji: the list, upload and deactivation. */
@Injectable()
export class RealmEmojiService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly queries: RealmEmojiQueries,
    private readonly catalog: EmojiCatalog,
    private readonly images: EmojiImageStorage,
  ) {}

  /** GET /realm/emoji: every custom emoji of the caller's organization, deactivated ones included. */
  list(actor: Actor): Promise<RealmEmojiRecord[]> {
    return this.queries.list(actor.realmId);
  }

  /**
   * POST /realm/emoji/{emoji_name} (Zulip's upload_emoji, then check_add_realm_emoji): the
   * checks in Zulip's order, then the new emoji with its image stored, and the whole map to
   * everyone. `overflow`: the body held a file larger, or more files, than the server reads. The temporary
   * files are always removed.
   */
  async uploadEmoji(
    actor: Actor,
    rawName: string,
    files: readonly UploadedEmojiFile[],
    overflow: 'size' | 'count' | null,
  ): Promise<void> {
    try {
      const name = customEmojiNameOf(rawName);
      checkValidEmojiName(name);
      await this.uow.run(async (tx) => {
        const setting = await tx.realms.groupSetting(actor.realmId, 'can_add_custom_emoji_group');
        const canAdd = holdsGroupSetting(setting, actor.userId, await tx.realmEmoji.groupIdsOfUser(actor.userId));
        const nameTaken = canAdd && (await tx.realmEmoji.lockActive(actor.realmId, name)) !== null;
        const [file] = files;
        assertCanUploadEmoji({
          name,
          canAdd,
          nameTaken,
          fileCount: overflow === 'count' ? Number.POSITIVE_INFINITY : overflow === 'size' ? 1 : files.length,
          isDefaultEmojiName: this.catalog.unicode().codeOf(name) !== undefined,
          isAdmin: isAdmin(actor.role),
          size: overflow === 'size' ? Number.POSITIVE_INFINITY : (file?.size ?? 0),
        });
        const id = await tx.realmEmoji.insert({ realmId: actor.realmId, name, authorId: actor.userId });
        const extension = emojiImageExtension(file.contentType, await fileHead(file.tempPath));
        const fileName = `${randomBytes(4).toString('hex')}${extension}`;
        await this.images.save(actor.realmId, fileName, file.tempPath);
        await tx.realmEmoji.finishUpload(actor.realmId, id, fileName, false);
        await notifyRealmEmoji(tx, actor.realmId);
      });
    } finally {
      await Promise.all(files.map((f) => rm(f.tempPath, { force: true })));
    }
  }

  /** DELETE /realm/emoji/{emoji_name}: deactivates it (Zulip's delete_emoji); administrators or its author. */
  async deleteEmoji(actor: Actor, name: string): Promise<void> {
    await this.uow.run(async (tx) => {
      const emoji = await tx.realmEmoji.lockActive(actor.realmId, name);
      if (emoji === null) throw customEmojiNotFound(name);
      assertCanRemoveCustomEmoji(isAdmin(actor.role), actor.userId, emoji.authorId);
      await tx.realmEmoji.deactivate(actor.realmId, emoji.id);
      await notifyRealmEmoji(tx, actor.realmId);
    });
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
      await notifyRealmEmoji(tx, e.realmId);
      return id;
    });
  }

  /** Deactivates the active custom emoji of that name (Zulip's do_remove_realm_emoji). */
  async deactivateRealmEmoji(realmId: number, name: string): Promise<void> {
    await this.uow.run(async (tx) => {
      const id = await tx.realmEmoji.lockActiveNamed(realmId, name);
      if (id === null) throw customEmojiNotFound(name);
      await tx.realmEmoji.deactivate(realmId, id);
      await notifyRealmEmoji(tx, realmId);
    });
  }
}
