import { LIMITS } from '@app/domain/realm';
import {
  assertAcceptedImageType,
  assertExactlyOneImage,
  assertImageWithinLimit,
  claimedImageType,
  DEFAULT_AVATAR_SIZE,
  type ImageUploadFiles,
  MEDIUM_AVATAR_SIZE,
} from '@app/domain/shared';
import { type Actor, assertCanChangeAvatar } from '@app/domain/users';
import { Injectable } from '@nestjs/common';
import type { ClientEvent } from '../../shared/application/client-event.js';
import { ImageProcessor, PublicImageStorage } from '../../shared/application/images.js';
import { Secrets } from '../../shared/application/secrets.js';
import { type Tx, UnitOfWork } from '../../shared/application/unit-of-work.js';
import { BotsService } from './bots.service.js';
import { avatarChangeEvent } from './user-settings.events.js';
import { avatarUrl, gravatarUrl } from './user.views.js';

/** One file part of an avatar upload, in its temporary file (removed when the request ends). */
export interface UploadedImage {
  tempPath: string;
  size: number;
  contentType: string;
  originalName: string;
}

/** The two stored files of an uploaded avatar (Zulip's `<hash>.png` and `<hash>-medium.png`). */
const avatarFiles = (avatarPath: string): string[] => [`${avatarPath}.png`, `${avatarPath}-medium.png`];

/**
 * Uploaded avatars (Zulip's set_avatar_backend, delete_avatar_backend, do_change_avatar_fields)
 * and the avatar redirects (Zulip's `avatar` view). The image work happens before the
 * transaction, which then only switches the user to the new files; the files of the avatar it
 * replaced are removed once it has committed, the new ones if it fails.
 */
@Injectable()
export class AvatarsService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly images: ImageProcessor,
    private readonly storage: PublicImageStorage,
    private readonly secrets: Secrets,
    private readonly bots: BotsService,
  ) {}

  /**
   * POST /users/me/avatar, checks in Zulip's order: exactly one file, avatar changes allowed,
   * within MAX_AVATAR_FILE_SIZE_MIB, an accepted image type, then a decodable image within the
   * pixel limit. Returns the new avatar URL.
   */
  async setAvatar(actor: Actor, files: readonly UploadedImage[], overflow: ImageUploadFiles['overflow']): Promise<string> {
    const upload: ImageUploadFiles = { sizes: files.map((f) => f.size), overflow };
    assertExactlyOneImage('avatar', upload);
    await this.uow.run(async (tx) => assertCanChangeAvatar((await tx.realms.get(actor.realmId, actor)).avatarChangesDisabled, actor.role));
    assertImageWithinLimit(upload, LIMITS.maxAvatarFileSizeMib);
    const [file] = files;
    assertAcceptedImageType(claimedImageType(file.contentType, file.originalName));
    const [small, medium] = await this.images.squares(file.tempPath, [DEFAULT_AVATAR_SIZE, MEDIUM_AVATAR_SIZE]);

    const avatarPath = `${actor.realmId}/${this.secrets.hexToken(20)}`;
    const [smallFile, mediumFile] = avatarFiles(avatarPath);
    await Promise.all([this.storage.write(smallFile, small), this.storage.write(mediumFile, medium)]);
    let replaced: string | null;
    try {
      replaced = await this.uow.run(async (tx) => {
        assertCanChangeAvatar((await tx.realms.get(actor.realmId, actor)).avatarChangesDisabled, actor.role);
        const before = (await tx.users.lockAvatar(actor.realmId, actor.userId))!;
        await this.changeAvatar(tx, actor, before.deliveryEmail, avatarPath);
        return before.avatarPath;
      });
    } catch (err) {
      await this.storage.remove([smallFile, mediumFile]).catch(() => undefined);
      throw err;
    }
    if (replaced !== null) await this.storage.remove(avatarFiles(replaced)).catch(() => undefined);
    return `/user_avatars/${smallFile}`;
  }

  /**
   * DELETE /users/me/avatar: back to the Gravatar (only an uploaded avatar changes anything, as
   * in Zulip); returns the avatar URL either way.
   */
  async deleteAvatar(actor: Actor): Promise<string> {
    const { url, removed } = await this.uow.run(async (tx) => {
      assertCanChangeAvatar((await tx.realms.get(actor.realmId, actor)).avatarChangesDisabled, actor.role);
      const before = (await tx.users.lockAvatar(actor.realmId, actor.userId))!;
      if (before.avatarPath === null) return { url: avatarUrl(before), removed: null };
      const avatarVersion = await this.changeAvatar(tx, actor, before.deliveryEmail, null);
      return { url: gravatarUrl(before.deliveryEmail, avatarVersion), removed: before.avatarPath };
    });
    if (removed !== null) await this.storage.remove(avatarFiles(removed)).catch(() => undefined);
    return url;
  }

  /** Zulip's do_change_avatar_fields (the row is locked): the new avatar and version, and the events; returns the version. */
  private async changeAvatar(tx: Tx, actor: Actor, deliveryEmail: string, avatarPath: string | null): Promise<number> {
    const avatarVersion = await tx.users.setAvatar(actor.realmId, actor.userId, avatarPath);
    const events: ClientEvent[] = actor.isBot ? await this.bots.botAvatarChanged(tx, actor.realmId, actor.userId) : [];
    events.push(avatarChangeEvent(actor.realmId, actor.userId, { deliveryEmail, avatarVersion, avatarPath }));
    tx.afterCommit(events);
    return avatarVersion;
  }

  /**
   * GET /avatar/{email_or_id}[/medium] (Zulip's `avatar` view): the avatar URL of the user of the
   * caller's organization with that ID or API email; anyone else (another organization's user,
   * or nobody) gets a new Gravatar of the text as given.
   */
  async avatarOf(actor: Actor, emailOrId: string, medium: boolean): Promise<string> {
    const user = await this.uow.run(async (tx) => {
      if (/^\d+$/.test(emailOrId)) return tx.users.findById(actor.realmId, Number(emailOrId));
      return (await tx.users.findManyByApiEmails(actor.realmId, [emailOrId])).get(emailOrId.toLowerCase()) ?? null;
    });
    return user === null ? gravatarUrl(emailOrId, 1, medium) : avatarUrl(user, medium);
  }
}
