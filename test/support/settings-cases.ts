/**
 * Invalid values of the display and notification settings and Zulip's answer to each: the same
 * checks guard a user's own settings (PATCH /settings) and the organization's defaults for new
 * users (PATCH /realm/user_settings_defaults).
 */
export const INVALID_DISPLAY_AND_NOTIFICATION_SETTINGS: [Record<string, unknown>, string][] = [
  [{ color_scheme: 4 }, 'Invalid color_scheme'],
  [{ color_scheme: '"2"' }, 'color_scheme is not an integer'],
  [{ emojiset: 'apple' }, 'Invalid emojiset'],
  [{ web_home_view: 'recent_topics' }, 'Invalid web_home_view'],
  [{ web_animate_image_previews: 'sometimes' }, 'Invalid web_animate_image_previews'],
  [{ resolved_topic_notice_auto_read_policy: '2' }, 'Invalid resolved_topic_notice_auto_read_policy'],
  [{ email_address_visibility: 6 }, 'Invalid email_address_visibility'],
  [{ web_font_size_px: 40000 }, 'web_font_size_px is too large'],
  [{ web_line_height_percent: -1 }, 'web_line_height_percent is too small'],
  [{ notification_sound: 'trumpet' }, "Invalid notification sound 'trumpet'"],
  [{ email_notifications_batching_period_seconds: 0 }, 'Invalid email batching period: 0 seconds'],
  [{ email_notifications_batching_period_seconds: 604801 }, 'Invalid email batching period: 604801 seconds'],
];
