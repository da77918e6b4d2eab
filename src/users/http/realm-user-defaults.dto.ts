import { REALM_DEFAULT_SETTING_NAMES } from '@app/domain/users';
import { settingDecorator } from './settings.dto.js';

/**
 * PATCH /realm/user_settings_defaults: every settable default as an optional parameter, typed
 * and checked as PATCH /settings checks it, declared in Zulip's (alphabetical) order, which
 * decides which error a bad request gets first.
 */
export class RealmUserDefaultsDto {
  [key: string]: unknown;
}

for (const name of REALM_DEFAULT_SETTING_NAMES) settingDecorator(name)(RealmUserDefaultsDto.prototype, name);
