import { type Actor, type ChangeableSetting, USER_SETTING_NAMES, type UserSettingValue } from '@app/domain/users';
import { Controller, Patch } from '@nestjs/common';
import { ApiKeyOnly, CurrentActor, CurrentSession, Require } from '../../shared/auth/decorators.js';
import { ZulipParams } from '../../shared/http/params/index.js';
import { ApiPost } from '../../shared/http/routes.js';
import { AccountService } from '../application/account.service.js';
import { SettingsService, type SettingsUpdate } from '../application/settings.service.js';
import { UpdateSettingsDto } from './settings.dto.js';

function settingsUpdate(p: UpdateSettingsDto): SettingsUpdate {
  const settings: Partial<Record<ChangeableSetting, UserSettingValue>> = {};
  for (const name of USER_SETTING_NAMES) {
    if (p[name] !== undefined) settings[name] = p[name] as UserSettingValue;
  }
  if (p.timezone !== undefined) settings.timezone = p.timezone;
  const t = p.target_users;
  return {
    settings,
    fullName: p.full_name,
    email: p.email,
    oldPassword: p.old_password,
    newPassword: p.new_password,
    targetUsers: t === undefined ? undefined : { userIds: t.user_ids, groupIds: t.group_ids, skipIfAlreadyEdited: t.skip_if_already_edited },
  };
}

@Controller('api/v1')
export class SettingsController {
  constructor(
    private readonly settings: SettingsService,
    private readonly accounts: AccountService,
  ) {}

  /** PATCH /settings; /settings/display and /settings/notifications are Zulip's deprecated aliases. */
  @Patch(['settings', 'settings/display', 'settings/notifications'])
  @Require('human')
  async update(@CurrentActor() actor: Actor, @CurrentSession() session: string | null, @ZulipParams() p: UpdateSettingsDto) {
    await this.settings.updateSettings(actor, settingsUpdate(p), session);
    return {};
  }

  /** Bots may regenerate their own key too (Zulip does not restrict this endpoint to humans). */
  @ApiPost('users/me/api_key/regenerate')
  @ApiKeyOnly()
  async regenerateApiKey(@CurrentActor() actor: Actor) {
    return { api_key: await this.accounts.regenerateApiKey(actor) };
  }
}
