import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

@Entity({ name: 'realms' })
export class RealmRow {
  @PrimaryGeneratedColumn() id: number;
  @Column({ name: 'string_id' }) stringId: string;
  @Column() name: string;
  @Column() description: string;
  @Column() deactivated: boolean;
  @Column({ name: 'date_created', type: 'timestamptz' }) dateCreated: Date;
  @Column({ name: 'org_type', type: 'smallint' }) orgType: number;
  @Column({ name: 'plan_type', type: 'smallint' }) planType: number;
  @Column({ name: 'default_language' }) defaultLanguage: string;
  @Column({ name: 'invite_required' }) inviteRequired: boolean;
  @Column({ name: 'emails_restricted_to_domains' }) emailsRestrictedToDomains: boolean;
  @Column({ name: 'disallow_disposable_email_addresses' }) disallowDisposableEmailAddresses: boolean;
  @Column({ name: 'waiting_period_threshold' }) waitingPeriodThreshold: number;
  @Column({ name: 'allow_message_editing' }) allowMessageEditing: boolean;
  @Column({ name: 'message_content_edit_limit_seconds', type: 'integer', nullable: true })
  messageContentEditLimitSeconds: number | null;
  @Column({ name: 'message_content_delete_limit_seconds', type: 'integer', nullable: true })
  messageContentDeleteLimitSeconds: number | null;
  @Column({ name: 'move_messages_within_stream_limit_seconds', type: 'integer', nullable: true })
  moveMessagesWithinStreamLimitSeconds: number | null;
  @Column({ name: 'move_messages_between_streams_limit_seconds', type: 'integer', nullable: true })
  moveMessagesBetweenStreamsLimitSeconds: number | null;
  @Column({ name: 'message_edit_history_visibility_policy', type: 'smallint' })
  messageEditHistoryVisibilityPolicy: number;
  @Column({ name: 'message_retention_days' }) messageRetentionDays: number;
  @Column({ name: 'enable_spectator_access' }) enableSpectatorAccess: boolean;
  @Column({ name: 'enable_read_receipts' }) enableReadReceipts: boolean;
  @Column({ name: 'topics_policy', type: 'smallint' }) topicsPolicy: number;
  @Column({ name: 'require_unique_names' }) requireUniqueNames: boolean;
  @Column({ name: 'name_changes_disabled' }) nameChangesDisabled: boolean;
  @Column({ name: 'email_changes_disabled' }) emailChangesDisabled: boolean;
  @Column({ name: 'avatar_changes_disabled' }) avatarChangesDisabled: boolean;
  @Column({ name: 'password_auth_enabled' }) passwordAuthEnabled: boolean;
  @Column({ name: 'presence_disabled' }) presenceDisabled: boolean;
  @Column({ name: 'digest_emails_enabled' }) digestEmailsEnabled: boolean;
  @Column({ name: 'send_welcome_emails' }) sendWelcomeEmails: boolean;
  @Column({ name: 'send_channel_events_messages' }) sendChannelEventsMessages: boolean;
  @Column({ name: 'moderation_request_channel_id', type: 'integer', nullable: true }) moderationRequestChannelId: number | null;
  @Column({ name: 'new_stream_announcements_stream_id', type: 'integer', nullable: true }) newStreamAnnouncementsStreamId: number | null;
  @Column({ name: 'signup_announcements_stream_id', type: 'integer', nullable: true }) signupAnnouncementsStreamId: number | null;
  @Column({ name: 'update_announcements_stream_id', type: 'integer', nullable: true }) updateAnnouncementsStreamId: number | null;
  @Column({ name: 'custom_upload_quota_gb', type: 'integer', nullable: true }) customUploadQuotaGb: number | null;
}
