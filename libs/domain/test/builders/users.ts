import type { CustomProfileFieldState } from '../../src/users/custom-profile-field.js';
import { ProfileFieldType } from '../../src/users/custom-profile-field.js';
import { defaultUserSettings, type UserSettings } from '../../src/users/user-settings.js';

/** A custom profile field (id 7, "Phone", short text) of organization 1. */
export const aProfileField = (o: Partial<CustomProfileFieldState> = {}): CustomProfileFieldState => ({
  id: 7,
  realmId: 1,
  name: 'Phone',
  hint: '',
  type: ProfileFieldType.SHORT_TEXT,
  fieldData: '',
  order: 7,
  displayInProfileSummary: false,
  required: false,
  editableByUser: true,
  useForUserMatching: false,
  ...o,
});

/** A List of options field with the choices `a` (Aisle) and `w` (Window). */
export const aSelectField = (o: Partial<CustomProfileFieldState> = {}): CustomProfileFieldState =>
  aProfileField({
    name: 'Seat',
    type: ProfileFieldType.SELECT,
    fieldData: JSON.stringify({ a: { text: 'Aisle', order: '1' }, w: { text: 'Window', order: '2' } }),
    ...o,
  });

/** A new account's settings, with overrides. */
export const someSettings = (o: Partial<UserSettings> = {}): UserSettings => ({ ...defaultUserSettings(), ...o });
