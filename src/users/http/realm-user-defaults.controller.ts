import { type Actor, REALM_DEFAULT_SETTING_NAMES, type UserSettingName, type UserSettingValue } from '@app/domain/users';
import { Controller, Patch } from '@nestjs/common';
import { CurrentActor, Require } from '../../shared/auth/decorators.js';
import { ZulipParams } from '../../shared/http/params/index.js';
import { RealmUserDefaultsService } from '../application/realm-user-defaults.service.js';
import { RealmUserDefaultsDto } from './realm-user-defaults.dto.js';

@Controller('api/v1/realm/user_settings_defaults')
export class RealmUserDefaultsController {
  constructor(private readonly defaults: RealmUserDefaultsService) {}

  /** PATCH /realm/user_settings_defaults (require_realm_admin). */
  @Patch()
  @Require('admin')
  async update(@CurrentActor() actor: Actor, @ZulipParams() p: RealmUserDefaultsDto) {
    const requested: Partial<Record<UserSettingName, UserSettingValue>> = {};
    for (const name of REALM_DEFAULT_SETTING_NAMES) {
      if (p[name] !== undefined) requested[name] = p[name] as UserSettingValue;
    }
    await this.defaults.updateDefaults(actor, requested);
    return {};
  }
}
