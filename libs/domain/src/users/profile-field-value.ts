import { badRequest } from '../shared/domain-error.js';
import { codePointLength } from '../shared/text.js';
import type { CustomProfileFieldState } from './custom-profile-field.js';
import { ProfileFieldType } from './custom-profile-field.js';
import { isAdmin, type Role } from './role.js';
import { isValidUrl } from './url.js';

/** Python's date.fromisoformat(v).isoformat() == v: exactly YYYY-MM-DD of a real day. */
function isIsoDate(v: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(v);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(2000, mo - 1, d));
  date.setUTCFullYear(y);
  return y >= 1 && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
}

/** A user a Users field may name: found in the organization, with these facts. */
export interface PickableUser {
  isActive: boolean;
  isBot: boolean;
}

/** The text the user wants to store, or the user IDs of a Users field. */
export type ProfileValue = string | readonly number[];

function capped(name: string, value: ProfileValue, limit: number): string {
  if (typeof value !== 'string') throw badRequest(`${name} is not a string`);
  if (codePointLength(value) > limit) throw badRequest(`${name} is too long (limit: ${limit} characters)`);
  return value;
}

/** Zulip's check_valid_user_ids (deactivated users and bots refused). */
function userIds(value: ProfileValue, users: ReadonlyMap<number, PickableUser>): string {
  if (!Array.isArray(value)) throw badRequest('User IDs is not a list');
  const ids = value as readonly number[];
  const unknown = ids.filter((id) => !users.has(id));
  if (unknown.length > 0) throw badRequest(`Invalid user IDs: ${unknown.join(', ')}`);
  for (const id of new Set(ids)) {
    if (!users.get(id)!.isActive) throw badRequest(`User with ID ${id} is deactivated`);
    if (users.get(id)!.isBot) throw badRequest(`User with ID ${id} is a bot`);
  }
  return JSON.stringify(ids);
}

/**
 * Zulip's validate_user_custom_profile_field: the value checked by the field's type (messages
 * name the field by its label) and turned into the text that is stored.
 */
export function checkProfileValue(field: CustomProfileFieldState, value: ProfileValue, users: ReadonlyMap<number, PickableUser>): string {
  const name = field.name;
  switch (field.type) {
    case ProfileFieldType.LONG_TEXT:
      return capped(name, value, 500);
    case ProfileFieldType.DATE:
      if (typeof value !== 'string') throw badRequest(`${name} is not a string`);
      if (!isIsoDate(value)) throw badRequest(`${name} is not a date`);
      return value;
    case ProfileFieldType.URL:
      if (typeof value !== 'string') throw badRequest(`${name} is not a string`);
      if (!isValidUrl(value)) throw badRequest(`${name} is not a URL`);
      return value;
    case ProfileFieldType.SELECT: {
      if (typeof value !== 'string') throw badRequest(`${name} is not a string`);
      const choices = JSON.parse(field.fieldData) as Record<string, unknown>;
      if (!(value in choices)) throw badRequest(`'${value}' is not a valid choice for '${name}'.`);
      return value;
    }
    case ProfileFieldType.USER:
      return userIds(value, users);
    default:
      return capped(name, value, 50);
  }
}

/** Who may change a user's value of a field: administrators always, others where the field allows. */
export function assertCanEditProfileField(actorRole: Role, field: CustomProfileFieldState): void {
  if (!isAdmin(actorRole) && !field.editableByUser) {
    throw badRequest('You are not allowed to change this field. Contact an administrator to update it.');
  }
}
