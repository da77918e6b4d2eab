/**
 * The organization's images (Zulip's Realm.icon_source, logo_source, night_logo_source): an icon
 * is a Gravatar identicon (`G`) until one is uploaded (`U`); a logo, day or night, is the default
 * (`D`) until one is uploaded. Each has a version, bumped on every change, that its URL carries.
 */
export type RealmImage = 'icon' | 'logo' | 'night_logo';
export const ICON_FROM_GRAVATAR = 'G';
export const LOGO_DEFAULT = 'D';
export const IMAGE_UPLOADED = 'U';

/** The source a removed image goes back to. */
export const defaultSourceOf = (image: RealmImage): string => (image === 'icon' ? ICON_FROM_GRAVATAR : LOGO_DEFAULT);
