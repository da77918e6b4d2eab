/** NOTIFY channel on which the database names an organization whose cached settings changed. */
export const SETTINGS_CHANGED_CHANNEL = 'svc_settings';

/**
 * Where the event listener reports changed organization settings (notifications on
 * SETTINGS_CHANGED_CHANNEL carry the organization id), and `all()` when it may have missed some
 * (after reconnecting). The settings cache implements it; without one, nothing to do.
 */
export abstract class SettingsInvalidation {
  abstract changed(realmId: number): void;
  abstract all(): void;
}

export class NoSettingsCache extends SettingsInvalidation {
  changed(): void {}
  all(): void {}
}
