import { badRequest } from '../shared/domain-error.js';

/**
 * Zulip's MIN_DEACTIVATED_REALM_DELETION_DAYS and MAX_DEACTIVATED_REALM_DELETION_DAYS as this
 * server sets them (register's server_min/max_deactivated_realm_deletion_days): at least 14
 * days, no maximum.
 */
export const MIN_DEACTIVATED_REALM_DELETION_DAYS = 14;
export const MAX_DEACTIVATED_REALM_DELETION_DAYS: number | null = null;

/**
 * Zulip's deactivate_realm checks of `deletion_delay_days` (null: the data is kept until an
 * operator deletes it): with a maximum, a delay is required and may not exceed it; with a
 * minimum, a given delay may not be shorter.
 */
export function checkDeletionDelayDays(
  days: number | null,
  min: number | null = MIN_DEACTIVATED_REALM_DELETION_DAYS,
  max: number | null = MAX_DEACTIVATED_REALM_DELETION_DAYS,
): void {
  if (max !== null && (days === null || days > max)) {
    throw badRequest(`Data deletion time must be at most ${max} days in the future.`);
  }
  if (min !== null && days !== null && days < min) {
    throw badRequest(`Data deletion time must be at least ${min} days in the future.`);
  }
}

/** When the organization's data is to be deleted: `days` after `now`, or never (null). */
export function scheduledDeletionDate(now: Date, days: number | null): Date | null {
  return days === null ? null : new Date(now.getTime() + days * 86_400_000);
}
