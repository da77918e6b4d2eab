import { SettingsInvalidation } from './settings-invalidation.js';

/** Hands each invalidation to every per-process cache of organization data. */
export class SettingsInvalidationFanOut extends SettingsInvalidation {
  constructor(private readonly caches: readonly SettingsInvalidation[]) {
    super();
  }

  changed(realmId: number): void {
    for (const cache of this.caches) cache.changed(realmId);
  }

  all(): void {
    for (const cache of this.caches) cache.all();
  }
}
