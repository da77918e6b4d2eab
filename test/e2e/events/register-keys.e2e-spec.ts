import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Account, expectSuccess, TestApp } from '../../support/test-app.js';

/**
 * POST /register against the keys of Zulip's register response
 * (test/support/fixtures/zulip-register-keys.json, read from zerver/openapi/zulip.yaml with the
 * event type that gates each key): every key is answered when its event type is asked for (and
 * when everything is), and none of another section comes along, except the keys below, each with
 * its reason. Keys with the brand word answer as `svc_*` (and `zulip_*` with ZULIP_CLIENT_COMPAT).
 */
interface KeyInfo {
  event_type: string | null;
  deprecated: boolean;
}
const fixture = JSON.parse(readFileSync(join(import.meta.dirname, '../../support/fixtures/zulip-register-keys.json'), 'utf8')) as {
  keys: Record<string, KeyInfo>;
};

/** Keys of Zulip's response this server does not answer. */
const NOT_ANSWERED: Record<string, string> = {
  demo_organization_scheduled_deletion_date: 'only for demo organizations, which this server does not make',
  receives_typing_notifications: 'a user setting: it is in user_settings (Zulip documents a top-level copy that its events.py never sets)',
  realm_create_private_stream_policy: 'deprecated policy number, replaced by realm_can_create_private_channel_group (answered)',
  realm_create_public_stream_policy: 'deprecated policy number, replaced by realm_can_create_public_channel_group (answered)',
  realm_create_web_public_stream_policy: 'deprecated policy number, replaced by realm_can_create_web_public_channel_group (answered)',
  realm_wildcard_mention_policy: 'deprecated policy number, replaced by realm_can_mention_many_users_group (answered)',
  push_devices: 'E2EE push devices are registered here, but their relay status is not reported in register yet',
};

/** Keys this server answers beyond the document, each with its section. */
const BEYOND: Record<string, string> = {
  idle_queue_timeout_secs: 'always: the queue lifespan asked for with queue_lifespan_secs (Zulip 12, feature level 481)',
};

/** Settings Zulip 12.0 (feature level 439) moved into user_settings: still sent at the top level to clients without the user_settings_object capability. */
const LEGACY_SETTINGS = new Set([
  'available_notification_sounds', 'color_scheme', 'default_language', 'demote_inactive_streams', 'desktop_icon_count_display',
  'email_notifications_batching_period_seconds', 'emojiset', 'emojiset_choices', 'enable_desktop_notifications', 'enable_digest_emails',
  'enable_drafts_synchronization', 'enable_login_emails', 'enable_marketing_emails', 'enable_offline_email_notifications',
  'enable_offline_push_notifications', 'enable_online_push_notifications', 'enable_sounds', 'enable_stream_audible_notifications',
  'enable_stream_desktop_notifications', 'enable_stream_email_notifications', 'enable_stream_push_notifications', 'enter_sends',
  'fluid_layout_width', 'high_contrast_mode', 'left_side_userlist', 'message_content_in_email_notifications', 'notification_sound',
  'pm_content_in_desktop_notifications', 'presence_enabled', 'realm_name_in_email_notifications_policy', 'starred_message_counts',
  'timezone', 'translate_emoticons', 'twenty_four_hour_time', 'web_home_view', 'wildcard_mentions_notify',
]);

const ENVELOPE = new Set(['result', 'msg']);
const svc = (key: string) => key.replace('zulip', 'svc');
const expected = Object.entries(fixture.keys).filter(([k]) => !(k in NOT_ANSWERED));
const eventTypes = [...new Set(Object.values(fixture.keys).flatMap((k) => (k.event_type === null ? [] : [k.event_type])))].sort();
/** unread_msgs needs both message and update_message_flags, as in Zulip. */
const askFor = (type: string) => (type === 'message' ? ['message', 'update_message_flags'] : [type]);

let t: TestApp;
let member: Account;
beforeAll(async () => {
  t = await TestApp.start();
  member = await t.createUser();
});
afterAll(() => t.close());

const register = (form: Record<string, unknown>) => t.post('register', { as: member, form: { client_capabilities: { notification_settings_null: false, user_settings_object: true }, ...form } });

describe('POST /register against Zulip’s register keys', () => {
  it('answers every key of the document when everything is asked for, and nothing else', async () => {
    const res = await register({});
    expectSuccess(res);
    const keys = new Set(Object.keys(res.body));
    expect(expected.filter(([k]) => !keys.has(k) && !keys.has(svc(k))).map(([k]) => k)).toEqual([]);
    const documented = new Set(Object.keys(fixture.keys).flatMap((k) => [k, svc(k)]));
    expect([...keys].filter((k) => !documented.has(k) && !ENVELOPE.has(k) && !(k in BEYOND))).toEqual([]);
  });

  it.each(eventTypes)('answers the keys of %s when it alone is asked for, and no key of another section', async (type) => {
    const res = await register({ fetch_event_types: askFor(type) });
    expectSuccess(res);
    const keys = new Set(Object.keys(res.body));
    const own = expected.filter(([, info]) => info.event_type === type).map(([k]) => k);
    expect(own.filter((k) => !keys.has(k) && !keys.has(svc(k)))).toEqual([]);
    const others = expected.filter(([, info]) => info.event_type !== null && !askFor(type).includes(info.event_type)).map(([k]) => k);
    // realm and realm_user share one key each way in Zulip's code (max_message_id with message is the exception it documents).
    expect(others.filter((k) => keys.has(k) || keys.has(svc(k)))).toEqual([]);
  });

  it('sends the settings Zulip moved into user_settings at the top level only to clients that lack user_settings_object', async () => {
    const modern = Object.keys((await register({ fetch_event_types: ['update_display_settings', 'update_global_notifications', 'user_settings'] })).body);
    expect(modern.filter((k) => LEGACY_SETTINGS.has(k))).toEqual([]);
    const legacy = await t.post('register', { as: member, form: { fetch_event_types: ['update_display_settings', 'update_global_notifications'] } });
    expect(Object.keys(legacy.body).filter((k) => LEGACY_SETTINGS.has(k)).sort()).toEqual([...LEGACY_SETTINGS].sort());
  });
});
