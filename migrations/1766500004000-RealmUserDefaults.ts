import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The organization's defaults for new users' settings (Zulip's RealmUserDefault, issue 25): one
 * row per organization holding every personal setting (a user's columns, with Zulip's model
 * defaults), changed by PATCH /realm/user_settings_defaults and copied to each person who joins.
 * Existing organizations get their row here; a missing row reads as the model defaults. Its
 * changes give the organization a new settings version (POST /register caches the section).
 * `realms.scheduled_deletion_date`: when a deactivated organization's data is to be deleted
 * (POST /realm/deactivate's deletion_delay_days; null: not scheduled).
 */
export class RealmUserDefaults1766500004000 implements MigrationInterface {
  name = 'RealmUserDefaults1766500004000';

  async up(q: QueryRunner): Promise<void> {
    // resolved_topic_notice_auto_read_policy holds the enum's value (1 always, 2 except_followed, 3 never).
    await q.query(`
      CREATE TABLE realm_user_defaults (
        realm_id integer PRIMARY KEY REFERENCES realms (id) ON DELETE CASCADE,
        allow_private_data_export boolean NOT NULL DEFAULT false,
        automatically_follow_topics_policy smallint NOT NULL DEFAULT 3,
        automatically_follow_topics_where_mentioned boolean NOT NULL DEFAULT true,
        automatically_unmute_topics_in_muted_streams_policy smallint NOT NULL DEFAULT 2,
        color_scheme smallint NOT NULL DEFAULT 1,
        default_language text NOT NULL DEFAULT 'en',
        demote_inactive_streams smallint NOT NULL DEFAULT 1,
        desktop_icon_count_display smallint NOT NULL DEFAULT 1,
        display_emoji_reaction_users boolean NOT NULL DEFAULT true,
        email_address_visibility smallint NOT NULL DEFAULT 1,
        email_notifications_batching_period_seconds integer NOT NULL DEFAULT 120,
        emojiset text NOT NULL DEFAULT 'google',
        enable_desktop_notifications boolean NOT NULL DEFAULT true,
        enable_digest_emails boolean NOT NULL DEFAULT true,
        enable_drafts_synchronization boolean NOT NULL DEFAULT true,
        enable_followed_topic_audible_notifications boolean NOT NULL DEFAULT true,
        enable_followed_topic_desktop_notifications boolean NOT NULL DEFAULT true,
        enable_followed_topic_email_notifications boolean NOT NULL DEFAULT true,
        enable_followed_topic_push_notifications boolean NOT NULL DEFAULT true,
        enable_followed_topic_wildcard_mentions_notify boolean NOT NULL DEFAULT true,
        enable_login_emails boolean NOT NULL DEFAULT true,
        enable_marketing_emails boolean NOT NULL DEFAULT true,
        enable_offline_email_notifications boolean NOT NULL DEFAULT true,
        enable_offline_push_notifications boolean NOT NULL DEFAULT true,
        enable_online_push_notifications boolean NOT NULL DEFAULT true,
        enable_sounds boolean NOT NULL DEFAULT true,
        enable_stream_audible_notifications boolean NOT NULL DEFAULT false,
        enable_stream_desktop_notifications boolean NOT NULL DEFAULT false,
        enable_stream_email_notifications boolean NOT NULL DEFAULT false,
        enable_stream_push_notifications boolean NOT NULL DEFAULT false,
        enter_sends boolean NOT NULL DEFAULT false,
        fluid_layout_width boolean NOT NULL DEFAULT false,
        hide_ai_features boolean NOT NULL DEFAULT false,
        high_contrast_mode boolean NOT NULL DEFAULT false,
        left_side_userlist boolean NOT NULL DEFAULT false,
        message_content_in_email_notifications boolean NOT NULL DEFAULT true,
        notification_sound text NOT NULL DEFAULT 'zulip',
        pm_content_in_desktop_notifications boolean NOT NULL DEFAULT true,
        presence_enabled boolean NOT NULL DEFAULT true,
        realm_name_in_email_notifications_policy smallint NOT NULL DEFAULT 1,
        receives_typing_notifications boolean NOT NULL DEFAULT true,
        resolved_topic_notice_auto_read_policy smallint NOT NULL DEFAULT 2,
        send_private_typing_notifications boolean NOT NULL DEFAULT true,
        send_read_receipts boolean NOT NULL DEFAULT true,
        send_stream_typing_notifications boolean NOT NULL DEFAULT true,
        starred_message_counts boolean NOT NULL DEFAULT true,
        translate_emoticons boolean NOT NULL DEFAULT false,
        twenty_four_hour_time boolean NOT NULL DEFAULT false,
        user_list_style smallint NOT NULL DEFAULT 3,
        web_animate_image_previews text NOT NULL DEFAULT 'on_hover',
        web_channel_default_view smallint NOT NULL DEFAULT 1,
        web_escape_navigates_to_home_view boolean NOT NULL DEFAULT true,
        web_font_size_px smallint NOT NULL DEFAULT 16,
        web_home_view text NOT NULL DEFAULT 'inbox',
        web_inbox_show_channel_folders boolean NOT NULL DEFAULT true,
        web_left_sidebar_show_channel_folders boolean NOT NULL DEFAULT true,
        web_left_sidebar_unreads_count_summary boolean NOT NULL DEFAULT true,
        web_line_height_percent smallint NOT NULL DEFAULT 140,
        web_mark_read_on_scroll_policy smallint NOT NULL DEFAULT 1,
        web_navigate_to_sent_message boolean NOT NULL DEFAULT true,
        web_stream_unreads_count_display_policy smallint NOT NULL DEFAULT 2,
        web_suggest_update_timezone boolean NOT NULL DEFAULT true,
        wildcard_mentions_notify boolean NOT NULL DEFAULT true
      )`);
    await q.query(`INSERT INTO realm_user_defaults (realm_id) SELECT id FROM realms`);
    for (const op of ['INSERT', 'UPDATE', 'DELETE']) {
      const tables = op === 'UPDATE' ? 'NEW TABLE AS changed_rows OLD TABLE AS old_rows' : op === 'INSERT' ? 'NEW TABLE AS changed_rows' : 'OLD TABLE AS changed_rows';
      await q.query(`CREATE TRIGGER realm_user_defaults_settings_${op.toLowerCase()} AFTER ${op} ON realm_user_defaults
        REFERENCING ${tables} FOR EACH STATEMENT EXECUTE FUNCTION realm_settings_rows_changed()`);
    }
    await q.query(`CREATE TRIGGER realm_user_defaults_settings_truncate AFTER TRUNCATE ON realm_user_defaults
      FOR EACH STATEMENT EXECUTE FUNCTION realm_settings_all_changed()`);
    await q.query(`ALTER TABLE realms ADD COLUMN scheduled_deletion_date timestamptz`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE realms DROP COLUMN scheduled_deletion_date`);
    await q.query(`DROP TABLE realm_user_defaults`);
  }
}
