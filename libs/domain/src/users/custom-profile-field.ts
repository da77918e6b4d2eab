import { badRequest, type DomainError } from '../shared/domain-error.js';
import { codePointLength } from '../shared/text.js';
import { isValidUrl } from './url.js';

/** Zulip's CustomProfileField types. */
export const ProfileFieldType = {
  SHORT_TEXT: 1,
  LONG_TEXT: 2,
  SELECT: 3,
  DATE: 4,
  URL: 5,
  USER: 6,
  EXTERNAL_ACCOUNT: 7,
  PRONOUNS: 8,
} as const;
export type ProfileFieldType = (typeof ProfileFieldType)[keyof typeof ProfileFieldType];

/** Zulip's ALL_FIELD_TYPES: sorted by display name, keyed in register by their keyword. */
export const PROFILE_FIELD_TYPES: readonly { id: ProfileFieldType; name: string; keyword: string }[] = [
  { id: ProfileFieldType.DATE, name: 'Date', keyword: 'DATE' },
  { id: ProfileFieldType.EXTERNAL_ACCOUNT, name: 'External account', keyword: 'EXTERNAL_ACCOUNT' },
  { id: ProfileFieldType.URL, name: 'Link', keyword: 'URL' },
  { id: ProfileFieldType.SELECT, name: 'List of options', keyword: 'SELECT' },
  { id: ProfileFieldType.PRONOUNS, name: 'Pronouns', keyword: 'PRONOUNS' },
  { id: ProfileFieldType.LONG_TEXT, name: 'Text (long)', keyword: 'LONG_TEXT' },
  { id: ProfileFieldType.SHORT_TEXT, name: 'Text (short)', keyword: 'SHORT_TEXT' },
  { id: ProfileFieldType.USER, name: 'Users', keyword: 'USER' },
];

export const isProfileFieldType = (n: number): n is ProfileFieldType => PROFILE_FIELD_TYPES.some((t) => t.id === n);

export const PROFILE_FIELD_NAME_MAX_LENGTH = 40;
export const PROFILE_FIELD_HINT_MAX_LENGTH = 80;
export const MAX_DISPLAY_IN_PROFILE_SUMMARY_FIELDS = 2;

/** Zulip's DEFAULT_EXTERNAL_ACCOUNTS (zerver/lib/external_accounts.py). */
export const DEFAULT_EXTERNAL_ACCOUNTS: Readonly<Record<string, { text: string; url_pattern: string; name: string; hint: string }>> = {
  behance: { text: 'Behance', url_pattern: 'https://www.behance.net/%(username)s', name: 'Behance username', hint: '' },
  bitbucket: { text: 'Bitbucket', url_pattern: 'https://bitbucket.org/%(username)s', name: 'Bitbucket username', hint: '' },
  bluesky: { text: 'Bluesky', url_pattern: 'https://bsky.app/profile/%(username)s', name: 'Bluesky handle', hint: '' },
  codeberg: { text: 'Codeberg', url_pattern: 'https://codeberg.org/%(username)s', name: 'Codeberg username', hint: '' },
  discord: { text: 'Discord', url_pattern: '', name: 'Discord tag', hint: '' },
  dribbble: { text: 'Dribbble', url_pattern: 'https://dribbble.com/%(username)s', name: 'Dribbble username', hint: '' },
  facebook: { text: 'Facebook', url_pattern: 'https://www.facebook.com/%(username)s', name: 'Facebook username', hint: '' },
  github: { text: 'GitHub', url_pattern: 'https://github.com/%(username)s', name: 'GitHub username', hint: '' },
  gitlab: { text: 'GitLab', url_pattern: 'https://gitlab.com/%(username)s', name: 'GitLab username', hint: '' },
  instagram: { text: 'Instagram', url_pattern: 'https://www.instagram.com/%(username)s', name: 'Instagram username', hint: '' },
  linkedin: { text: 'LinkedIn', url_pattern: 'https://www.linkedin.com/in/%(username)s', name: 'LinkedIn profile name', hint: '' },
  mastodon: { text: 'Mastodon', url_pattern: '%(username)s', name: 'Mastodon profile', hint: 'The full URL to your profile' },
  medium: { text: 'Medium', url_pattern: 'https://%(username)s.medium.com', name: 'Medium username', hint: '' },
  pinterest: { text: 'Pinterest', url_pattern: 'https://www.pinterest.com/%(username)s', name: 'Pinterest username', hint: '' },
  reddit: { text: 'Reddit', url_pattern: 'https://www.reddit.com/user/%(username)s', name: 'Reddit username', hint: '' },
  snapchat: { text: 'Snapchat', url_pattern: 'https://www.snapchat.com/@%(username)s', name: 'Snapchat username', hint: '' },
  threads: { text: 'Threads', url_pattern: 'https://www.threads.com/@%(username)s', name: 'Threads username', hint: '' },
  tiktok: { text: 'TikTok', url_pattern: 'https://www.tiktok.com/@%(username)s', name: 'TikTok username', hint: '' },
  twitch: { text: 'Twitch', url_pattern: 'https://www.twitch.tv/%(username)s', name: 'Twitch username', hint: '' },
  x: { text: 'X', url_pattern: 'https://x.com/%(username)s', name: 'X username', hint: '' },
  youtube: { text: 'YouTube', url_pattern: 'https://www.youtube.com/%(username)s', name: 'YouTube handle', hint: '' },
};

/** A field's `field_data` as decoded from the request: an object of strings or objects of strings. */
export type ProfileFieldData = Readonly<Record<string, unknown>>;

export interface CustomProfileFieldState {
  id: number;
  realmId: number;
  name: string;
  hint: string;
  type: number;
  /** JSON text as Zulip stores it ('' for types without data). */
  fieldData: string;
  order: number;
  displayInProfileSummary: boolean;
  required: boolean;
  editableByUser: boolean;
  useForUserMatching: boolean;
}

/** What a new field is stored as. */
export type FieldDefinition = Omit<CustomProfileFieldState, 'id' | 'realmId' | 'order'>;

const isDict = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Zulip's check_required_string on `field_data["<key>"]`. */
function requiredString(obj: Record<string, unknown>, key: string): void {
  if (!(key in obj)) throw badRequest(`${key} key is missing from field_data`);
  const v = obj[key];
  if (typeof v !== 'string') throw badRequest(`field_data["${key}"] is not a string`);
  if (v.trim() === '') throw badRequest(`field_data["${key}"] cannot be blank.`);
}

function onlyKeys(obj: Record<string, unknown>, allowed: readonly string[]): void {
  const extra = Object.keys(obj).filter((k) => !allowed.includes(k));
  if (extra.length > 0) throw badRequest(`Unexpected arguments: ${extra.join(', ')}`);
}

/** Zulip's validate_select_field_data (a List of options field's choices). */
export function validateSelectFieldData(data: ProfileFieldData): void {
  if (Object.keys(data).length < 1) throw badRequest('Field must have at least one choice.');
  const texts = new Set<string>();
  for (const [key, value] of Object.entries(data)) {
    if (key.trim() === '') throw badRequest("'value' cannot be blank.");
    if (!isDict(value)) throw badRequest('field_data is not a dict');
    requiredString(value, 'text');
    requiredString(value, 'order');
    onlyKeys(value, ['text', 'order']);
    texts.add(value.text as string);
  }
  if (texts.size !== Object.keys(data).length) throw badRequest('Field must not have duplicate choices.');
}

/** Zulip's validate_external_account_field_data. */
export function validateExternalAccountFieldData(data: ProfileFieldData): void {
  const obj = data as Record<string, unknown>;
  requiredString(obj, 'subtype');
  if ('url_pattern' in obj) {
    const pattern = obj.url_pattern;
    if (typeof pattern !== 'string') throw badRequest('field_data["url_pattern"] is not a string');
    if (pattern.split('%(username)s').length !== 2) throw badRequest("URL pattern must contain '%(username)s'.");
    if (!isValidUrl(pattern.replace('%(username)s', 'username'))) throw badRequest('field_data["url_pattern"] is not a URL');
  }
  onlyKeys(obj, ['subtype', 'url_pattern']);
  const subtype = obj.subtype as string;
  if (!(subtype in DEFAULT_EXTERNAL_ACCOUNTS) && subtype !== 'custom') throw badRequest('Invalid external account type');
}

const isDefaultExternal = (type: number, data: ProfileFieldData): boolean =>
  type === ProfileFieldType.EXTERNAL_ACCOUNT && data.subtype !== 'custom';

export interface FieldRequest {
  name: string;
  hint: string;
  type: number;
  fieldData: ProfileFieldData;
  displayInProfileSummary: boolean;
}

/** Zulip's validate_custom_profile_field, in its order: data, label and hint, type, summary. */
export function validateField(f: FieldRequest): void {
  if (f.type === ProfileFieldType.SELECT) validateSelectFieldData(f.fieldData);
  else if (f.type === ProfileFieldType.EXTERNAL_ACCOUNT) validateExternalAccountFieldData(f.fieldData);
  if (!isDefaultExternal(f.type, f.fieldData)) {
    if (f.name.trim() === '') throw badRequest('Label cannot be blank.');
    if (codePointLength(f.hint) > PROFILE_FIELD_HINT_MAX_LENGTH) throw badRequest(`hint is too long (limit: ${PROFILE_FIELD_HINT_MAX_LENGTH} characters)`);
    if (codePointLength(f.name) > PROFILE_FIELD_NAME_MAX_LENGTH) throw badRequest(`name is too long (limit: ${PROFILE_FIELD_NAME_MAX_LENGTH} characters)`);
  }
  if (!isProfileFieldType(f.type)) throw badRequest('Invalid field type.');
  if (f.displayInProfileSummary && (f.type === ProfileFieldType.LONG_TEXT || f.type === ProfileFieldType.USER)) {
    throw badRequest('Field type not supported for display in profile summary.');
  }
}

export const summaryLimitReached = (): DomainError =>
  badRequest(`Only ${MAX_DISPLAY_IN_PROFILE_SUMMARY_FIELDS} custom profile fields can be displayed in the profile summary.`);
export const fieldNotFound = (id: number): DomainError => badRequest(`Field id ${id} not found.`);
export const fieldLabelTaken = (): DomainError => badRequest('A field with that label already exists.');

/** Only List of options and External account fields store their data (compact JSON, as orjson writes it). */
const storedData = (type: number, data: ProfileFieldData): string =>
  type === ProfileFieldType.SELECT || type === ProfileFieldType.EXTERNAL_ACCOUNT ? JSON.stringify(data) : '';

export interface NewFieldRequest extends FieldRequest {
  required: boolean;
  editableByUser: boolean;
  useForUserMatching: boolean;
}

/**
 * POST /realm/profile_fields: checks the request (`summaryFields`: how many fields already show
 * in the profile summary) and returns what to store. A default external account takes its
 * label and hint from Zulip's table and keeps only its subtype.
 */
export function defineField(req: NewFieldRequest, summaryFields: number): FieldDefinition {
  if (req.displayInProfileSummary && summaryFields >= MAX_DISPLAY_IN_PROFILE_SUMMARY_FIELDS) throw summaryLimitReached();
  validateField(req);
  const flags = {
    type: req.type,
    displayInProfileSummary: req.displayInProfileSummary,
    required: req.required,
    editableByUser: req.editableByUser,
    useForUserMatching: req.useForUserMatching,
  };
  if (isDefaultExternal(req.type, req.fieldData)) {
    const account = DEFAULT_EXTERNAL_ACCOUNTS[req.fieldData.subtype as string];
    return { ...flags, name: account.name, hint: account.hint, fieldData: JSON.stringify({ subtype: req.fieldData.subtype }) };
  }
  return { ...flags, name: req.name, hint: req.hint, fieldData: storedData(req.type, req.fieldData) };
}

export interface FieldUpdateRequest {
  name?: string;
  hint?: string;
  fieldData?: ProfileFieldData;
  displayInProfileSummary?: boolean;
  required?: boolean;
  editableByUser?: boolean;
  useForUserMatching?: boolean;
}

export interface FieldUpdate {
  field: CustomProfileFieldState;
  /** List of options: the choices that disappeared, whose values users lose. */
  removedChoices: string[];
}

const parsedData = (f: CustomProfileFieldState): ProfileFieldData => (f.fieldData === '' ? {} : (JSON.parse(f.fieldData) as ProfileFieldData));

const sameData = (a: ProfileFieldData, b: ProfileFieldData): boolean => JSON.stringify(a) === JSON.stringify(b);

/**
 * PATCH /realm/profile_fields/{id} (Zulip's update_realm_custom_profile_field and
 * try_update_realm_custom_profile_field). `summaryFields` counts the other fields shown in
 * the profile summary.
 */
export function updateField(current: CustomProfileFieldState, req: FieldUpdateRequest, summaryFields: number): FieldUpdate {
  if (req.displayInProfileSummary === true && summaryFields >= MAX_DISPLAY_IN_PROFILE_SUMMARY_FIELDS) throw summaryLimitReached();
  const existing = parsedData(current);
  if (current.type === ProfileFieldType.EXTERNAL_ACCOUNT && isDefaultExternal(current.type, existing)) {
    const changes =
      (req.name !== undefined && req.name !== current.name) ||
      (req.hint !== undefined && req.hint !== current.hint) ||
      (req.fieldData !== undefined && !sameData(req.fieldData, existing));
    if (changes) throw badRequest('Default custom field cannot be updated.');
  }
  validateField({
    name: req.name ?? current.name,
    hint: req.hint ?? current.hint,
    type: current.type,
    fieldData: req.fieldData ?? existing,
    displayInProfileSummary: req.displayInProfileSummary ?? current.displayInProfileSummary,
  });
  const next: CustomProfileFieldState = {
    ...current,
    name: req.name ?? current.name,
    hint: req.hint ?? current.hint,
    required: req.required ?? current.required,
    editableByUser: req.editableByUser ?? current.editableByUser,
    displayInProfileSummary: req.displayInProfileSummary ?? current.displayInProfileSummary,
    useForUserMatching: req.useForUserMatching ?? current.useForUserMatching,
  };
  let removedChoices: string[] = [];
  if (current.type === ProfileFieldType.SELECT || current.type === ProfileFieldType.EXTERNAL_ACCOUNT) {
    if (req.fieldData !== undefined && current.type === ProfileFieldType.SELECT) {
      removedChoices = Object.keys(existing).filter((k) => !(k in req.fieldData!));
    }
    if (req.fieldData !== undefined || current.fieldData === '') next.fieldData = JSON.stringify(req.fieldData ?? {});
  }
  return { field: next, removedChoices };
}

/** PATCH /realm/profile_fields: every field of the organization must get a place. */
export function reorderFields(fieldIds: readonly number[], order: readonly number[]): Map<number, number> {
  const position = new Map<number, number>();
  order.forEach((id, i) => position.set(id, i));
  if (fieldIds.some((id) => !position.has(id))) throw badRequest('Invalid order mapping.');
  return new Map(fieldIds.map((id) => [id, position.get(id)!]));
}

/** Short and long text values are rendered (Zulip's is_renderable). */
export const isRenderable = (type: number): boolean => type === ProfileFieldType.SHORT_TEXT || type === ProfileFieldType.LONG_TEXT;
