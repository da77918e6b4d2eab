import {
  type Actor,
  type CustomProfileFieldState,
  defineField,
  type FieldUpdateRequest,
  fieldNotFound,
  type NewFieldRequest,
  reorderFields,
  updateField,
} from '@app/domain/users';
import { Injectable } from '@nestjs/common';
import { toEveryone } from '../../shared/application/client-event.js';
import { type Tx, UnitOfWork } from '../../shared/application/unit-of-work.js';
import { CustomProfileFieldQueries } from './custom-profile-fields.ports.js';
import { presentCustomProfileField } from './custom-profile-fields.views.js';
import { ProfileData, type ProfileDataItem } from './profile-data.js';

/**
 * Custom profile fields (Zulip's zerver/views/custom_profile_fields.py and
 * zerver/actions/custom_profile_fields.py). Every change of the organization's fields tells
 * everyone the whole list (`custom_profile_fields`).
 */
@Injectable()
export class CustomProfileFieldsService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly queries: CustomProfileFieldQueries,
    private readonly profileData: ProfileData,
  ) {}

  listFields(actor: Actor): Promise<CustomProfileFieldState[]> {
    return this.queries.list(actor.realmId);
  }

  /** The organization's fields now, for everyone (Zulip's notify_realm_custom_profile_fields). */
  private async notify(tx: Tx, realmId: number): Promise<void> {
    const fields = await tx.profileFields.list(realmId);
    tx.afterCommit(toEveryone(realmId, [{ type: 'custom_profile_fields', fields: fields.map(presentCustomProfileField) }]));
  }

  /** POST /realm/profile_fields (administrators). */
  async createField(actor: Actor, req: NewFieldRequest): Promise<number> {
    return this.uow.run(async (tx) => {
      await tx.profileFields.list(actor.realmId, true); // serialises field changes of the organization
      const definition = defineField(req, await tx.profileFields.countInSummary(actor.realmId));
      const id = await tx.profileFields.insert(actor.realmId, definition);
      await this.notify(tx, actor.realmId);
      return id;
    });
  }

  /** PATCH /realm/profile_fields/{id} (administrators). */
  async updateField(actor: Actor, fieldId: number, req: FieldUpdateRequest): Promise<void> {
    await this.uow.run(async (tx) => {
      await tx.profileFields.list(actor.realmId, true);
      const field = await tx.profileFields.find(actor.realmId, fieldId);
      if (field === null) throw fieldNotFound(fieldId);
      const update = updateField(field, req, await tx.profileFields.countInSummary(actor.realmId, fieldId));
      await tx.profileFields.deleteValuesChoosing(fieldId, update.removedChoices);
      await tx.profileFields.save(update.field);
      await this.notify(tx, actor.realmId);
    });
  }

  /** DELETE /realm/profile_fields/{id} (administrators): users' values go with it. */
  async deleteField(actor: Actor, fieldId: number): Promise<void> {
    await this.uow.run(async (tx) => {
      if ((await tx.profileFields.find(actor.realmId, fieldId, true)) === null) throw fieldNotFound(fieldId);
      await tx.profileFields.delete(actor.realmId, fieldId);
      await this.notify(tx, actor.realmId);
    });
  }

  /** PATCH /realm/profile_fields with `order` (administrators). */
  async reorderFields(actor: Actor, order: readonly number[]): Promise<void> {
    await this.uow.run(async (tx) => {
      const fields = await tx.profileFields.list(actor.realmId, true);
      await tx.profileFields.setOrder(actor.realmId, reorderFields(fields.map((f) => f.id), order));
      await this.notify(tx, actor.realmId);
    });
  }

  /** PATCH /users/me/profile_data. */
  async updateOwnProfileData(actor: Actor, items: readonly ProfileDataItem[]): Promise<void> {
    await this.uow.run((tx) => this.profileData.update(tx, actor, actor.userId, items));
  }

  /** DELETE /users/me/profile_data. */
  async removeOwnProfileData(actor: Actor, fieldIds: readonly number[]): Promise<void> {
    await this.uow.run((tx) => this.profileData.remove(tx, actor, actor.userId, fieldIds));
  }
}
