import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * User settings and account (issue 12): every personal setting of Zulip's UserBaseSettings as
 * a typed column of `users` (presence_enabled and timezone existed already), which settings a
 * user changed themselves (for target_users' skip_if_already_edited), pending email-address
 * changes, and custom profile fields with their values.
 */
export class UserSettings1764900000000 implements MigrationInterface {
  name = 'UserSettings1764900000000';

  async up(q: QueryRunner): Promise<void> {
    // Defaults are Zulip's model defaults; resolved_topic_notice_auto_read_policy holds the
    // enum's value (1 always, 2 except_followed, 3 never).
    await q.query(`
      ALTER TABLE users
        ADD COLUMN allow_private_data_export boolean NOT NULL DEFAULT false,
        ADD COLUMN automatically_follow_topics_policy smallint NOT NULL DEFAULT 3,
        ADD COLUMN automatically_follow_topics_where_mentioned boolean NOT NULL DEFAULT true,
        ADD COLUMN automatically_unmute_topics_in_muted_streams_policy smallint NOT NULL DEFAULT 2,
        ADD COLUMN color_scheme smallint NOT NULL DEFAULT 1,
        ADD COLUMN default_language text NOT NULL DEFAULT 'en',
        ADD COLUMN demote_inactive_streams smallint NOT NULL DEFAULT 1,
        ADD COLUMN desktop_icon_count_display smallint NOT NULL DEFAULT 1,
        ADD COLUMN display_emoji_reaction_users boolean NOT NULL DEFAULT true,
        ADD COLUMN email_address_visibility smallint NOT NULL DEFAULT 1,
        ADD COLUMN email_notifications_batching_period_seconds integer NOT NULL DEFAULT 120,
        ADD COLUMN emojiset text NOT NULL DEFAULT 'google',
        ADD COLUMN enable_desktop_notifications boolean NOT NULL DEFAULT true,
        ADD COLUMN enable_digest_emails boolean NOT NULL DEFAULT true,
        ADD COLUMN enable_drafts_synchronization boolean NOT NULL DEFAULT true,
        ADD COLUMN enable_followed_topic_audible_notifications boolean NOT NULL DEFAULT true,
        ADD COLUMN enable_followed_topic_desktop_notifications boolean NOT NULL DEFAULT true,
        ADD COLUMN enable_followed_topic_email_notifications boolean NOT NULL DEFAULT true,
        ADD COLUMN enable_followed_topic_push_notifications boolean NOT NULL DEFAULT true,
        ADD COLUMN enable_followed_topic_wildcard_mentions_notify boolean NOT NULL DEFAULT true,
        ADD COLUMN enable_login_emails boolean NOT NULL DEFAULT true,
        ADD COLUMN enable_marketing_emails boolean NOT NULL DEFAULT true,
        ADD COLUMN enable_offline_email_notifications boolean NOT NULL DEFAULT true,
        ADD COLUMN enable_offline_push_notifications boolean NOT NULL DEFAULT true,
        ADD COLUMN enable_online_push_notifications boolean NOT NULL DEFAULT true,
        ADD COLUMN enable_sounds boolean NOT NULL DEFAULT true,
        ADD COLUMN enable_stream_audible_notifications boolean NOT NULL DEFAULT false,
        ADD COLUMN enable_stream_desktop_notifications boolean NOT NULL DEFAULT false,
        ADD COLUMN enable_stream_email_notifications boolean NOT NULL DEFAULT false,
        ADD COLUMN enable_stream_push_notifications boolean NOT NULL DEFAULT false,
        ADD COLUMN enter_sends boolean NOT NULL DEFAULT false,
        ADD COLUMN fluid_layout_width boolean NOT NULL DEFAULT false,
        ADD COLUMN high_contrast_mode boolean NOT NULL DEFAULT false,
        ADD COLUMN hide_ai_features boolean NOT NULL DEFAULT false,
        ADD COLUMN left_side_userlist boolean NOT NULL DEFAULT false,
        ADD COLUMN message_content_in_email_notifications boolean NOT NULL DEFAULT true,
        ADD COLUMN notification_sound text NOT NULL DEFAULT 'zulip',
        ADD COLUMN pm_content_in_desktop_notifications boolean NOT NULL DEFAULT true,
        ADD COLUMN realm_name_in_email_notifications_policy smallint NOT NULL DEFAULT 1,
        ADD COLUMN receives_typing_notifications boolean NOT NULL DEFAULT true,
        ADD COLUMN resolved_topic_notice_auto_read_policy smallint NOT NULL DEFAULT 2,
        ADD COLUMN send_private_typing_notifications boolean NOT NULL DEFAULT true,
        ADD COLUMN send_read_receipts boolean NOT NULL DEFAULT true,
        ADD COLUMN send_stream_typing_notifications boolean NOT NULL DEFAULT true,
        ADD COLUMN starred_message_counts boolean NOT NULL DEFAULT true,
        ADD COLUMN translate_emoticons boolean NOT NULL DEFAULT false,
        ADD COLUMN twenty_four_hour_time boolean NOT NULL DEFAULT false,
        ADD COLUMN user_list_style smallint NOT NULL DEFAULT 3,
        ADD COLUMN web_animate_image_previews text NOT NULL DEFAULT 'on_hover',
        ADD COLUMN web_channel_default_view smallint NOT NULL DEFAULT 1,
        ADD COLUMN web_escape_navigates_to_home_view boolean NOT NULL DEFAULT true,
        ADD COLUMN web_font_size_px smallint NOT NULL DEFAULT 16,
        ADD COLUMN web_home_view text NOT NULL DEFAULT 'inbox',
        ADD COLUMN web_inbox_show_channel_folders boolean NOT NULL DEFAULT true,
        ADD COLUMN web_left_sidebar_show_channel_folders boolean NOT NULL DEFAULT true,
        ADD COLUMN web_left_sidebar_unreads_count_summary boolean NOT NULL DEFAULT true,
        ADD COLUMN web_line_height_percent smallint NOT NULL DEFAULT 140,
        ADD COLUMN web_mark_read_on_scroll_policy smallint NOT NULL DEFAULT 1,
        ADD COLUMN web_navigate_to_sent_message boolean NOT NULL DEFAULT true,
        ADD COLUMN web_stream_unreads_count_display_policy smallint NOT NULL DEFAULT 2,
        ADD COLUMN web_suggest_update_timezone boolean NOT NULL DEFAULT true,
        ADD COLUMN wildcard_mentions_notify boolean NOT NULL DEFAULT true`);

    await q.query(`
      CREATE TABLE user_setting_self_edits (
        user_id integer NOT NULL REFERENCES users (id),
        setting text NOT NULL,
        PRIMARY KEY (user_id, setting)
      )`);

    // status: 0 pending, 1 used, 2 revoked (a newer request revokes the older ones).
    await q.query(`
      CREATE TABLE email_change_requests (
        id serial PRIMARY KEY,
        realm_id integer NOT NULL REFERENCES realms (id),
        user_id integer NOT NULL REFERENCES users (id),
        old_email text NOT NULL,
        new_email text NOT NULL,
        confirmation_key text NOT NULL,
        created_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL,
        status smallint NOT NULL DEFAULT 0
      )`);
    await q.query(`CREATE UNIQUE INDEX email_change_requests_key_key ON email_change_requests (confirmation_key)`);
    await q.query(`CREATE INDEX email_change_requests_user_idx ON email_change_requests (user_id) WHERE status = 0`);

    await q.query(`
      CREATE TABLE custom_profile_fields (
        id serial PRIMARY KEY,
        realm_id integer NOT NULL REFERENCES realms (id),
        name text NOT NULL,
        hint text NOT NULL DEFAULT '',
        field_type smallint NOT NULL,
        field_data text NOT NULL DEFAULT '',
        ordering integer NOT NULL DEFAULT 0,
        display_in_profile_summary boolean NOT NULL DEFAULT false,
        required boolean NOT NULL DEFAULT false,
        editable_by_user boolean NOT NULL DEFAULT true,
        use_for_user_matching boolean NOT NULL DEFAULT false
      )`);
    await q.query(`CREATE UNIQUE INDEX custom_profile_fields_realm_name_key ON custom_profile_fields (realm_id, name)`);

    await q.query(`
      CREATE TABLE custom_profile_field_values (
        user_id integer NOT NULL REFERENCES users (id),
        field_id integer NOT NULL REFERENCES custom_profile_fields (id) ON DELETE CASCADE,
        realm_id integer NOT NULL REFERENCES realms (id),
        value text NOT NULL,
        rendered_value text,
        PRIMARY KEY (user_id, field_id)
      )`);
    await q.query(`CREATE INDEX custom_profile_field_values_field_idx ON custom_profile_field_values (field_id)`);
    await q.query(`CREATE INDEX custom_profile_field_values_realm_idx ON custom_profile_field_values (realm_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE custom_profile_field_values, custom_profile_fields, email_change_requests, user_setting_self_edits`);
    await q.query(`ALTER TABLE users DROP COLUMN allow_private_data_export, DROP COLUMN automatically_follow_topics_policy, DROP COLUMN automatically_follow_topics_where_mentioned, DROP COLUMN automatically_unmute_topics_in_muted_streams_policy, DROP COLUMN color_scheme, DROP COLUMN default_language, DROP COLUMN demote_inactive_streams, DROP COLUMN desktop_icon_count_display, DROP COLUMN display_emoji_reaction_users, DROP COLUMN email_address_visibility, DROP COLUMN email_notifications_batching_period_seconds, DROP COLUMN emojiset, DROP COLUMN enable_desktop_notifications, DROP COLUMN enable_digest_emails, DROP COLUMN enable_drafts_synchronization, DROP COLUMN enable_followed_topic_audible_notifications, DROP COLUMN enable_followed_topic_desktop_notifications, DROP COLUMN enable_followed_topic_email_notifications, DROP COLUMN enable_followed_topic_push_notifications, DROP COLUMN enable_followed_topic_wildcard_mentions_notify, DROP COLUMN enable_login_emails, DROP COLUMN enable_marketing_emails, DROP COLUMN enable_offline_email_notifications, DROP COLUMN enable_offline_push_notifications, DROP COLUMN enable_online_push_notifications, DROP COLUMN enable_sounds, DROP COLUMN enable_stream_audible_notifications, DROP COLUMN enable_stream_desktop_notifications, DROP COLUMN enable_stream_email_notifications, DROP COLUMN enable_stream_push_notifications, DROP COLUMN enter_sends, DROP COLUMN fluid_layout_width, DROP COLUMN high_contrast_mode, DROP COLUMN hide_ai_features, DROP COLUMN left_side_userlist, DROP COLUMN message_content_in_email_notifications, DROP COLUMN notification_sound, DROP COLUMN pm_content_in_desktop_notifications, DROP COLUMN realm_name_in_email_notifications_policy, DROP COLUMN receives_typing_notifications, DROP COLUMN resolved_topic_notice_auto_read_policy, DROP COLUMN send_private_typing_notifications, DROP COLUMN send_read_receipts, DROP COLUMN send_stream_typing_notifications, DROP COLUMN starred_message_counts, DROP COLUMN translate_emoticons, DROP COLUMN twenty_four_hour_time, DROP COLUMN user_list_style, DROP COLUMN web_animate_image_previews, DROP COLUMN web_channel_default_view, DROP COLUMN web_escape_navigates_to_home_view, DROP COLUMN web_font_size_px, DROP COLUMN web_home_view, DROP COLUMN web_inbox_show_channel_folders, DROP COLUMN web_left_sidebar_show_channel_folders, DROP COLUMN web_left_sidebar_unreads_count_summary, DROP COLUMN web_line_height_percent, DROP COLUMN web_mark_read_on_scroll_policy, DROP COLUMN web_navigate_to_sent_message, DROP COLUMN web_stream_unreads_count_display_policy, DROP COLUMN web_suggest_update_timezone, DROP COLUMN wildcard_mentions_notify`);
  }
}
