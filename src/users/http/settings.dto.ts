import { badRequest } from '@app/domain/shared';
import { checkTimezone, USER_SETTING_NAMES, USER_SETTINGS, type UserSettingName } from '@app/domain/users';
import { bool, type Decoder, dict, int, JsonParam, list, literal, paramError, PlainParam, str } from '../../shared/http/params/index.js';

/** Zulip's TargetUsersData: unknown keys are ignored, one of the lists must name someone. */
const targetUsers = (): Decoder<{ user_ids: number[]; group_ids: number[]; skip_if_already_edited: boolean }> => (v, path) => {
  const d = dict(
    {
      user_ids: { decoder: list(int()), optional: true },
      group_ids: { decoder: list(int()), optional: true },
      skip_if_already_edited: { decoder: bool() },
    },
    { allowExtra: true },
  )(v, path);
  const out = { user_ids: d.user_ids ?? [], group_ids: d.group_ids ?? [], skip_if_already_edited: d.skip_if_already_edited };
  if (out.user_ids.length === 0 && out.group_ids.length === 0) throw badRequest('Either user_ids or group_ids must be provided.');
  return out;
};

const timezone = (): Decoder<string> => (v, path) => checkTimezone(str()(v, path));

/** The web app's size settings are small non-negative integers (Zulip's PositiveSmallIntegerField). */
const SMALL_NUMBERS: readonly UserSettingName[] = ['web_font_size_px', 'web_line_height_percent'];

export function settingDecorator(name: UserSettingName): PropertyDecorator {
  const spec = USER_SETTINGS[name];
  const optional = { optional: true } as const;
  if (spec.kind === 'bool') return JsonParam(bool(), optional);
  if (spec.kind === 'int') {
    const choices = 'choices' in spec ? (spec.choices as readonly number[]) : undefined;
    return JsonParam(int(SMALL_NUMBERS.includes(name) ? { min: 0, max: 32767 } : { oneOf: choices }), optional);
  }
  if ('choices' in spec && spec.choices !== undefined) return PlainParam(literal(spec.choices as readonly string[]), optional);
  return PlainParam(str(), optional);
}

/**
 * PATCH /settings: every setting as an optional parameter plus the account fields, declared
 * in Zulip's (alphabetical) order, which decides which error a bad request gets first.
 */
export class UpdateSettingsDto {
  [key: string]: unknown;
  email?: string;
  full_name?: string;
  new_password?: string;
  old_password?: string;
  target_users?: { user_ids: number[]; group_ids: number[]; skip_if_already_edited: boolean };
  timezone?: string;
}

const ACCOUNT_PARAMS: Record<string, PropertyDecorator> = {
  email: PlainParam(str(), { optional: true }),
  full_name: PlainParam(str(), { optional: true, domainNul: true }),
  new_password: PlainParam(str(), { optional: true }),
  old_password: PlainParam(str(), { optional: true }),
  target_users: JsonParam(targetUsers(), { optional: true }),
  timezone: PlainParam(timezone(), { optional: true }),
};

/** The catalogue's order (Zulip's, nearly alphabetical), each account parameter at its alphabetical place. */
function parameterOrder(): string[] {
  const order: string[] = [...USER_SETTING_NAMES];
  for (const name of Object.keys(ACCOUNT_PARAMS)) {
    const at = order.findIndex((n) => n > name);
    order.splice(at === -1 ? order.length : at, 0, name);
  }
  return order;
}

for (const name of parameterOrder()) {
  const decorate = ACCOUNT_PARAMS[name] ?? settingDecorator(name as UserSettingName);
  decorate(UpdateSettingsDto.prototype, name);
}

/** PATCH /realm/profile_fields/... and /users/me/profile_data values. */
export const profileFieldData = (): Decoder<Record<string, unknown>> => (v, path) => {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw paramError(`${path} is not a dict`);
  for (const [key, value] of Object.entries(v)) {
    const ok = typeof value === 'string' || (typeof value === 'object' && value !== null && !Array.isArray(value) && Object.values(value).every((x) => typeof x === 'string'));
    if (!ok) throw paramError(`${path}[${JSON.stringify(key)}] is not a dict`);
  }
  return v as Record<string, unknown>;
};

/**
 * One `{id, value}` of profile data. A value is text or a list of user IDs (and, for an
 * administrator's PATCH /users/{id}, null to clear); anything else fails like Zulip's first
 * union member: `…["value"] is not a string`.
 */
const profileDataItem =
  (allowNull: boolean): Decoder<{ id: number; value: string | number[] | null }> =>
  (v, path) => {
    const item = dict({ id: { decoder: int() }, value: { decoder: (x) => x } }, { allowExtra: true })(v, path);
    const value = item.value;
    const at = `${path}["value"]`;
    if (value === null && allowNull) return { id: item.id, value: null };
    if (typeof value === 'string') return { id: item.id, value };
    if (Array.isArray(value) && value.every((x) => typeof x === 'number' && Number.isSafeInteger(x))) return { id: item.id, value: value as number[] };
    throw paramError(`${at} is not a string`);
  };

export const profileData = (allowNull = false) => list(profileDataItem(allowNull));

export class CreateProfileFieldDto {
  @JsonParam(bool(), { default: false }) display_in_profile_summary: boolean;
  @JsonParam(bool(), { default: true }) editable_by_user: boolean;
  @JsonParam(profileFieldData(), { optional: true }) field_data?: Record<string, unknown>;
  @JsonParam(int()) field_type: number;
  @PlainParam(str(), { default: '' }) hint: string;
  @PlainParam(str(), { default: '' }) name: string;
  @JsonParam(bool(), { default: false }) required: boolean;
  @JsonParam(bool(), { default: false }) use_for_user_matching: boolean;
}

export class UpdateProfileFieldDto {
  @JsonParam(bool(), { optional: true }) display_in_profile_summary?: boolean;
  @JsonParam(bool(), { optional: true }) editable_by_user?: boolean;
  @JsonParam(profileFieldData(), { optional: true }) field_data?: Record<string, unknown>;
  @PlainParam(str(), { optional: true }) hint?: string;
  @PlainParam(str(), { optional: true }) name?: string;
  @JsonParam(bool(), { optional: true }) required?: boolean;
  @JsonParam(bool(), { optional: true }) use_for_user_matching?: boolean;
}

export class ReorderProfileFieldsDto {
  @JsonParam(list(int())) order: number[];
}

export class UpdateProfileDataDto {
  @JsonParam(profileData()) data: { id: number; value: string | number[] }[];
}

export class RemoveProfileDataDto {
  @JsonParam(list(int())) data: number[];
}
