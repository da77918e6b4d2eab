import { type CustomProfileFieldState, PROFILE_FIELD_TYPES } from '@app/domain/users';
import type { ProfileValueRecord } from './custom-profile-fields.ports.js';

/** A field as Zulip's CustomProfileField.as_dict shows it (`display_in_profile_summary` only when true). */
export function presentCustomProfileField(f: CustomProfileFieldState): Record<string, unknown> {
  return {
    id: f.id,
    name: f.name,
    type: f.type,
    hint: f.hint,
    field_data: f.fieldData,
    order: f.order,
    required: f.required,
    editable_by_user: f.editableByUser,
    use_for_user_matching: f.useForUserMatching,
    ...(f.displayInProfileSummary ? { display_in_profile_summary: true } : {}),
  };
}

/** register's `custom_profile_field_types`: keyword → id and name. */
export function presentCustomProfileFieldTypes(): Record<string, { id: number; name: string }> {
  return Object.fromEntries(PROFILE_FIELD_TYPES.map((t) => [t.keyword, { id: t.id, name: t.name }]));
}

/** A user's `profile_data`: field ID (as a string) → value, and the rendering of text fields. */
export function presentProfileData(values: readonly ProfileValueRecord[]): Record<string, { value: string; rendered_value?: string }> {
  return Object.fromEntries(
    values.map((v) => [String(v.fieldId), v.renderedValue === null ? { value: v.value } : { value: v.value, rendered_value: v.renderedValue }]),
  );
}
