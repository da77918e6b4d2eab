import { createHash } from 'node:crypto';
import { IMAGE_UPLOADED, type RealmImage } from '@app/domain/realm';
import type { RealmRecord } from './realm.ports.js';

/**
 * The default logo's URL, day or night. Zulip points at its own static logo
 * (`/static/images/logo/zulip-org-logo.svg?version=0`); this server has none to serve, and
 * answers the empty string, which clients take for "no logo".
 */
export const DEFAULT_LOGO_URL = '';

/** Where an uploaded image is stored, relative to the public images' root (Zulip's local backend layout). */
export const realmImageFile = (realmId: number, image: RealmImage): string => `${realmId}/realm/${image}.png`;

/**
 * Zulip's get_realm_icon_url: the uploaded icon with its version, else the Gravatar identicon
 * of the organization's string id.
 */
export function realmIconUrl(realm: RealmRecord): string {
  if (realm.iconSource === IMAGE_UPLOADED) return `/user_avatars/${realmImageFile(realm.id, 'icon')}?version=${realm.iconVersion}`;
  const hash = createHash('md5').update(realm.stringId.toLowerCase()).digest('hex');
  return `https://secure.gravatar.com/avatar/${hash}?d=identicon`;
}

/** Zulip's get_realm_logo_url: the uploaded logo (day or night) with its version, else the default. */
export function realmLogoUrl(realm: RealmRecord, night: boolean): string {
  const image: RealmImage = night ? 'night_logo' : 'logo';
  const [source, version] = night ? [realm.nightLogoSource, realm.nightLogoVersion] : [realm.logoSource, realm.logoVersion];
  return source === IMAGE_UPLOADED ? `/user_avatars/${realmImageFile(realm.id, image)}?version=${version}` : DEFAULT_LOGO_URL;
}

/** The `data` of the image's `realm` update_dict event (Zulip's do_change_icon_source, get_realm_logo_data). */
export function realmImageData(realm: RealmRecord, image: RealmImage): Record<string, string> {
  if (image === 'icon') return { icon_source: realm.iconSource, icon_url: realmIconUrl(realm) };
  if (image === 'logo') return { logo_url: realmLogoUrl(realm, false), logo_source: realm.logoSource };
  return { night_logo_url: realmLogoUrl(realm, true), night_logo_source: realm.nightLogoSource };
}

/** register's realm_icon_url … realm_night_logo_source. */
export function realmImageFields(realm: RealmRecord) {
  return {
    realm_icon_url: realmIconUrl(realm),
    realm_icon_source: realm.iconSource,
    realm_logo_url: realmLogoUrl(realm, false),
    realm_logo_source: realm.logoSource,
    realm_night_logo_url: realmLogoUrl(realm, true),
    realm_night_logo_source: realm.nightLogoSource,
  };
}
