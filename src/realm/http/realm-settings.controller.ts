import { EditHistoryVisibility, REALM_GROUP_SETTING_NAMES, RealmTopicsPolicy } from '@app/domain/realm';
import type { Actor } from '@app/domain/users';
import { Controller, Patch } from '@nestjs/common';
import { CurrentActor, Require } from '../../shared/auth/decorators.js';
import { ZulipParams } from '../../shared/http/params/index.js';
import { type GroupSettingUpdate, RealmSettingsService } from '../application/realm-settings.service.js';
import { UpdateRealmDto } from './realm-settings.dto.js';
import { presentGroupSetting } from '../../shared/application/group-setting-view.js';

@Controller('api/v1/realm')
export class RealmSettingsController {
  constructor(private readonly settings: RealmSettingsService) {}

  /**
   * PATCH /realm. The response lists what changed, as Zulip's does: text settings as
   * "updated", enumerations by number, group settings as their new value.
   */
  @Patch()
  @Require('admin')
  async update(@CurrentActor() actor: Actor, @ZulipParams() p: UpdateRealmDto) {
    const given = Object.entries(p)
      .filter(([, v]) => v !== undefined)
      .map(([k]) => k);
    const groups = p as unknown as Record<string, GroupSettingUpdate | undefined>;
    const result = await this.settings.updateRealm(actor, {
      name: p.name,
      description: p.description,
      allowMessageEditing: p.allow_message_editing,
      messageContentEditLimitSeconds: p.message_content_edit_limit_seconds,
      messageContentDeleteLimitSeconds: p.message_content_delete_limit_seconds,
      moveMessagesWithinStreamLimitSeconds: p.move_messages_within_stream_limit_seconds,
      moveMessagesBetweenStreamsLimitSeconds: p.move_messages_between_streams_limit_seconds,
      messageEditHistoryVisibilityPolicy:
        p.message_edit_history_visibility_policy === undefined
          ? undefined
          : EditHistoryVisibility[p.message_edit_history_visibility_policy],
      topicsPolicy: p.topics_policy === undefined ? undefined : RealmTopicsPolicy[p.topics_policy],
      messageRetentionDays: p.message_retention_days,
      waitingPeriodThreshold: p.waiting_period_threshold,
      inviteRequired: p.invite_required,
      emailsRestrictedToDomains: p.emails_restricted_to_domains,
      disallowDisposableEmailAddresses: p.disallow_disposable_email_addresses,
      enableSpectatorAccess: p.enable_spectator_access,
      enableReadReceipts: p.enable_read_receipts,
      sendChannelEventsMessages: p.send_channel_events_messages,
      channelSettings: {
        moderationRequestChannelId: p.moderation_request_channel_id,
        newStreamAnnouncementsStreamId: p.new_stream_announcements_stream_id,
        signupAnnouncementsStreamId: p.signup_announcements_stream_id,
        updateAnnouncementsStreamId: p.svc_update_announcements_stream_id ?? p.zulip_update_announcements_stream_id,
      },
      groupSettings: Object.fromEntries(
        REALM_GROUP_SETTING_NAMES.filter((s) => groups[s] !== undefined).map((s) => [s, groups[s]!]),
      ),
      given,
    });
    return {
      ...result.properties,
      ...Object.fromEntries(Object.entries(result.groupSettings).map(([k, v]) => [k, presentGroupSetting(v)])),
      ...result.channelSettings,
    };
  }
}
