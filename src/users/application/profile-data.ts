import { paragraphHtml } from '@app/domain/shared';
import {
  type Actor,
  assertCanEditProfileField,
  checkProfileValue,
  type CustomProfileFieldState,
  fieldNotFound,
  isRenderable,
  type PickableUser,
  type ProfileValue,
} from '@app/domain/users';
import { Injectable } from '@nestjs/common';
import type { ClientEvent } from '../../shared/application/client-event.js';
import type { Tx } from '../../shared/application/unit-of-work.js';
import type { ProfileValueRecord } from './custom-profile-fields.ports.js';

export interface ProfileDataItem {
  id: number;
  value: ProfileValue;
}

/** Zulip's notify_user_update_custom_profile_data: everyone learns the new value (null when removed). */
function profileDataEvent(realmId: number, userId: number, fieldId: number, value: string | null, rendered: string | null): ClientEvent {
  const data: Record<string, unknown> = { id: fieldId, value };
  if (rendered) data.rendered_value = rendered;
  return { realmId, event: { type: 'realm_user', op: 'update', person: { user_id: userId, custom_profile_field: data } }, userIds: [], everyone: true };
}

/**
 * Changing one user's custom profile field values inside the caller's transaction (PATCH and
 * DELETE /users/me/profile_data, an administrator's PATCH /users/{id}). Everything is checked
 * before anything is written.
 */
@Injectable()
export class ProfileData {
  private field(fields: Map<number, CustomProfileFieldState>, actor: Actor, id: number): CustomProfileFieldState {
    const field = fields.get(id);
    if (field === undefined) throw fieldNotFound(id);
    assertCanEditProfileField(actor.role, field);
    return field;
  }

  private async fieldsOf(tx: Tx, realmId: number): Promise<Map<number, CustomProfileFieldState>> {
    return new Map((await tx.profileFields.list(realmId)).map((f) => [f.id, f]));
  }

  /** Zulip's validate_user_custom_profile_data + do_update_user_custom_profile_data_if_changed. */
  async update(tx: Tx, actor: Actor, userId: number, items: readonly ProfileDataItem[]): Promise<void> {
    if (items.length === 0) return;
    const realmId = actor.realmId;
    const fields = await this.fieldsOf(tx, realmId);
    const named = [...new Set(items.flatMap((i) => (Array.isArray(i.value) ? (i.value as number[]) : [])))];
    const found = await tx.users.findManyByIds(realmId, named);
    const users = new Map<number, PickableUser>([...found].map(([id, u]) => [id, { isActive: u.isActive, isBot: u.isBot }]));
    const checked: { field: CustomProfileFieldState; value: string }[] = [];
    for (const item of items) {
      const field = this.field(fields, actor, item.id);
      checked.push({ field, value: checkProfileValue(field, item.value, users) });
    }
    const current = await tx.profileFields.valuesOf(userId, [...new Set(checked.map((c) => c.field.id))]);
    const events: ClientEvent[] = [];
    const writes = new Map<number, Omit<ProfileValueRecord, 'userId'>>();
    for (const { field, value } of checked) {
      if (current.get(field.id)?.value === value) continue;
      const renderedValue = isRenderable(field.type) ? paragraphHtml(value) : null;
      const record = { fieldId: field.id, value, renderedValue };
      current.set(field.id, { ...record, userId });
      writes.set(field.id, record);
      events.push(profileDataEvent(realmId, userId, field.id, value, renderedValue));
    }
    await tx.profileFields.upsertValues(realmId, userId, [...writes.values()]);
    tx.afterCommit(events);
  }

  /** Zulip's check_remove_custom_profile_field_value for each field: unknown fields refused, missing values ignored. */
  async remove(tx: Tx, actor: Actor, userId: number, fieldIds: readonly number[]): Promise<void> {
    if (fieldIds.length === 0) return;
    const fields = await this.fieldsOf(tx, actor.realmId);
    for (const id of fieldIds) this.field(fields, actor, id);
    const removed = new Set(await tx.profileFields.deleteValues(userId, fieldIds));
    const ordered = [...new Set(fieldIds)].filter((id) => removed.has(id));
    tx.afterCommit(ordered.map((id) => profileDataEvent(actor.realmId, userId, id, null, null)));
  }
}
