import type { Actor } from '@app/domain/users';
import { Controller, Delete, Get, Param, Patch } from '@nestjs/common';
import { CurrentActor, Require } from '../../shared/auth/decorators.js';
import { ZulipParams } from '../../shared/http/params/index.js';
import { PathIntPipe } from '../../shared/http/path-params.js';
import { ApiPost } from '../../shared/http/routes.js';
import { CustomProfileFieldsService } from '../application/custom-profile-fields.service.js';
import { presentCustomProfileField } from '../application/custom-profile-fields.views.js';
import {
  CreateProfileFieldDto,
  RemoveProfileDataDto,
  ReorderProfileFieldsDto,
  UpdateProfileDataDto,
  UpdateProfileFieldDto,
} from './settings.dto.js';

@Controller('api/v1')
export class CustomProfileFieldsController {
  constructor(private readonly fields: CustomProfileFieldsService) {}

  @Get('realm/profile_fields')
  async list(@CurrentActor() actor: Actor) {
    return { custom_fields: (await this.fields.listFields(actor)).map(presentCustomProfileField) };
  }

  @ApiPost('realm/profile_fields')
  @Require('admin')
  async create(@CurrentActor() actor: Actor, @ZulipParams() p: CreateProfileFieldDto) {
    const id = await this.fields.createField(actor, {
      name: p.name.trim(),
      hint: p.hint,
      type: p.field_type,
      fieldData: p.field_data ?? {},
      displayInProfileSummary: p.display_in_profile_summary,
      required: p.required,
      editableByUser: p.editable_by_user,
      useForUserMatching: p.use_for_user_matching,
    });
    return { id };
  }

  @Patch('realm/profile_fields')
  @Require('admin')
  async reorder(@CurrentActor() actor: Actor, @ZulipParams() p: ReorderProfileFieldsDto) {
    await this.fields.reorderFields(actor, p.order);
    return {};
  }

  @Patch('realm/profile_fields/:field_id')
  @Require('admin')
  async update(@CurrentActor() actor: Actor, @Param('field_id', PathIntPipe) fieldId: number, @ZulipParams() p: UpdateProfileFieldDto) {
    await this.fields.updateField(actor, fieldId, {
      name: p.name?.trim(),
      hint: p.hint,
      fieldData: p.field_data,
      displayInProfileSummary: p.display_in_profile_summary,
      required: p.required,
      editableByUser: p.editable_by_user,
      useForUserMatching: p.use_for_user_matching,
    });
    return {};
  }

  @Delete('realm/profile_fields/:field_id')
  @Require('admin')
  async delete(@CurrentActor() actor: Actor, @Param('field_id', PathIntPipe) fieldId: number) {
    await this.fields.deleteField(actor, fieldId);
    return {};
  }

  @Patch('users/me/profile_data')
  @Require('human')
  async updateProfileData(@CurrentActor() actor: Actor, @ZulipParams() p: UpdateProfileDataDto) {
    await this.fields.updateOwnProfileData(actor, p.data);
    return {};
  }

  @Delete('users/me/profile_data')
  @Require('human')
  async removeProfileData(@CurrentActor() actor: Actor, @ZulipParams() p: RemoveProfileDataDto) {
    await this.fields.removeOwnProfileData(actor, p.data);
    return {};
  }
}
