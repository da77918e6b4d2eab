import { defaultSourceOf, IMAGE_UPLOADED, LIMITS, type RealmImage } from '@app/domain/realm';
import {
  assertAcceptedImageType,
  assertExactlyOneImage,
  assertImageWithinLimit,
  claimedImageType,
  DEFAULT_AVATAR_SIZE,
  type ImageUploadFiles,
} from '@app/domain/shared';
import type { Actor } from '@app/domain/users';
import { Injectable } from '@nestjs/common';
import { toEveryone } from '../../shared/application/client-event.js';
import { ImageProcessor, PublicImageStorage } from '../../shared/application/images.js';
import { UnitOfWork } from '../../shared/application/unit-of-work.js';
import { realmIconUrl, realmImageData, realmImageFile, realmLogoUrl } from './realm-branding.views.js';
import type { RealmRecord } from './realm.ports.js';

/** One file part of an icon or logo upload, in its temporary file (removed when the request ends). */
export interface UploadedRealmImage {
  tempPath: string;
  size: number;
  contentType: string;
  originalName: string;
}

/**
 * The organization's icon and logos (Zulip's realm_icon and realm_logo views, do_change_icon_source,
 * do_change_logo_source). Administrators only (the routes' decorator). An upload is resized
 * before the transaction and written over the organization's image file (its URL's version
 * changes with the transaction); a removal only changes the source, as in Zulip (a cached URL
 * may still need the file, which the next upload replaces).
 */
@Injectable()
export class RealmBrandingService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly images: ImageProcessor,
    private readonly storage: PublicImageStorage,
  ) {}

  /** POST /realm/icon: the icon URL afterwards. */
  async uploadIcon(actor: Actor, files: readonly UploadedRealmImage[], overflow: ImageUploadFiles['overflow']): Promise<string> {
    const upload: ImageUploadFiles = { sizes: files.map((f) => f.size), overflow };
    assertExactlyOneImage('icon', upload);
    assertImageWithinLimit(upload, LIMITS.maxIconFileSizeMib);
    const [file] = files;
    assertAcceptedImageType(claimedImageType(file.contentType, file.originalName));
    const [icon] = await this.images.squares(file.tempPath, [DEFAULT_AVATAR_SIZE]);
    await this.storage.write(realmImageFile(actor.realmId, 'icon'), icon);
    return realmIconUrl(await this.changeSource(actor, 'icon', IMAGE_UPLOADED));
  }

  /** DELETE /realm/icon: back to the Gravatar identicon; the icon URL afterwards. */
  async deleteIcon(actor: Actor): Promise<string> {
    return realmIconUrl(await this.changeSource(actor, 'icon', defaultSourceOf('icon')));
  }

  /** POST /realm/logo (`night`: the night logo). */
  async uploadLogo(actor: Actor, night: boolean, files: readonly UploadedRealmImage[], overflow: ImageUploadFiles['overflow']): Promise<void> {
    const upload: ImageUploadFiles = { sizes: files.map((f) => f.size), overflow };
    assertExactlyOneImage('logo', upload);
    assertImageWithinLimit(upload, LIMITS.maxLogoFileSizeMib);
    const [file] = files;
    assertAcceptedImageType(claimedImageType(file.contentType, file.originalName));
    const logo = await this.images.logo(file.tempPath);
    const image: RealmImage = night ? 'night_logo' : 'logo';
    await this.storage.write(realmImageFile(actor.realmId, image), logo);
    await this.changeSource(actor, image, IMAGE_UPLOADED);
  }

  /** DELETE /realm/logo: back to the default logo. */
  async deleteLogo(actor: Actor, night: boolean): Promise<void> {
    const image: RealmImage = night ? 'night_logo' : 'logo';
    await this.changeSource(actor, image, defaultSourceOf(image));
  }

  /** GET /realm/icon's target. */
  async iconUrl(actor: Actor): Promise<string> {
    return realmIconUrl(await this.uow.run((tx) => tx.realms.get(actor.realmId, actor)));
  }

  /** GET /realm/logo's target (the default logo's is empty). */
  async logoUrl(actor: Actor, night: boolean): Promise<string> {
    return realmLogoUrl(await this.uow.run((tx) => tx.realms.get(actor.realmId, actor)), night);
  }

  /** The source with the version bumped, and the `realm` update_dict event for everyone; the organization afterwards. */
  private changeSource(actor: Actor, image: RealmImage, source: string): Promise<RealmRecord> {
    return this.uow.run(async (tx) => {
      await tx.realms.changeImage(actor.realmId, image, source);
      const realm = await tx.realms.getForUpdate(actor.realmId);
      tx.afterCommit(toEveryone(actor.realmId, [{ type: 'realm', op: 'update_dict', property: image, data: realmImageData(realm, image) }]));
      return realm;
    });
  }
}
