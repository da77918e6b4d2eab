import { expectError, expectSuccess, TestApp } from '../../support/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await TestApp.start({ REALM_NAME: 'Acme Corp' });
});
afterAll(() => t.close());

describe('GET /server_settings', () => {
  it('answers without credentials, every field present', async () => {
    const res = await t.get('server_settings', { as: null });
    expectSuccess(res);
    expect(res.body).toEqual({
      result: 'success',
      msg: '',
      authentication_methods: {
        password: true,
        dev: false,
        email: true,
        ldap: false,
        remoteuser: false,
        github: false,
        azuread: false,
        gitlab: false,
        google: false,
        apple: false,
        saml: false,
        'openid connect': false,
      },
      svc_version: expect.any(String),
      svc_merge_base: res.body.svc_version,
      svc_feature_level: 472,
      // ZULIP_CLIENT_COMPAT (on by default): the names Zulip's own clients read.
      zulip_version: res.body.svc_version,
      zulip_merge_base: res.body.svc_version,
      zulip_feature_level: 472,
      push_notifications_enabled: false,
      is_incompatible: false,
      email_auth_enabled: true,
      require_email_format_usernames: true,
      realm_url: 'http://chat.example.com',
      realm_name: 'Acme Corp',
      realm_icon: 'https://secure.gravatar.com/avatar/d41d8cd98f00b204e9800998ecf8427e?d=identicon',
      realm_description: '',
      realm_web_public_access_enabled: false,
      external_authentication_methods: [],
      realm_uri: 'http://chat.example.com',
    });
  });
  it('flags clients it deems incompatible', async () => {
    const res = await t.get('server_settings', { as: null }).set('User-Agent', 'ZulipInvalid/1.0');
    expect(res.body.is_incompatible).toBe(true);
  });
});

describe('GET /health', () => {
  it('reports ok once the database answers', async () => {
    const res = await t.http.get('/health');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok', details: { email: 'not configured' } });
  });
});

describe('routing', () => {
  it('answers unknown API routes with a JSON 404', async () => {
    const res = await t.get('no_such_endpoint');
    expectError(res, 404, 'Not Found', 'NOT_FOUND');
  });
  it('answers a wrong method with 405 and the allowed methods, before authentication', async () => {
    const res = await t.call('put', 'server_settings', { as: null });
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('GET, HEAD');
    expect(res.body).toEqual({ result: 'error', msg: 'Method Not Allowed', allowed_methods: ['GET', 'HEAD'] });
  });
  it('treats a non-numeric id segment as an unknown route', async () => {
    expectError(await t.get('users/abc'), 404, 'Not Found', 'NOT_FOUND');
  });
});

describe('POST /register', () => {
  it('returns the limits, versions and the realm bundle, and no fake queue', async () => {
    const res = await t.post('register', { form: {} });
    expectSuccess(res, {
      svc_feature_level: 472,
      max_message_length: 10000,
      max_topic_length: 60,
      max_stream_name_length: 60,
      max_stream_description_length: 1024,
      realm_name: 'Acme Corp',
      realm_url: 'http://chat.example.com',
      realm_empty_topic_display_name: 'general chat',
      realm_topics_policy: 'allow_empty_topic',
      realm_message_edit_history_visibility_policy: 'all',
      realm_allow_message_editing: true,
      realm_message_content_edit_limit_seconds: 600,
      realm_waiting_period_threshold: 0,
      event_queue_longpoll_timeout_seconds: 90,
    });
    expect(res.body.queue_id).toEqual(expect.any(String));
    expect(res.body.last_event_id).toBe(-1);
    const groups = await t.get('user_groups');
    const id = (name: string) => groups.body.user_groups.find((g: { name: string }) => g.name === name).id;
    expect(res.body.realm_can_create_groups).toBe(id('role:members'));
    expect(res.body.realm_can_manage_all_groups).toBe(id('role:owners'));
    expect(res.body.realm_create_multiuse_invite_group).toBe(id('role:administrators'));
    expect(res.body.realm_can_create_web_public_channel_group).toBe(id('role:owners'));
    expect(res.body.realm_users.map((u: { user_id: number }) => u.user_id)).toEqual([t.owner.id]);
  });
  it('returns only the requested sections', async () => {
    const res = await t.post('register', { form: { fetch_event_types: ['realm_user'] } });
    expectSuccess(res, { user_id: t.owner.id, is_owner: true, is_admin: true, can_create_streams: true });
    expect(res.body).not.toHaveProperty('realm_name');
    expect(res.body.realm_users[0]).not.toHaveProperty('is_active');
    expect(res.body.cross_realm_bots.map((b: { full_name: string }) => b.full_name)).toEqual([
      'Notification Bot',
      'Email Gateway',
    ]);
  });
  it('rejects malformed selectors', async () => {
    expectError(await t.post('register', { form: { event_types: 'realm' } }), 400, 'event_types is not valid JSON');
    expectError(await t.post('register', { form: { event_types: '{}' } }), 400, 'event_types is not a list');
  });
});

describe('ZULIP_CLIENT_COMPAT', () => {
  it('adds Zulip’s names to server_settings and register by default', async () => {
    const res = await t.post('register', { form: { fetch_event_types: ['realm'] } });
    // A new organization announces server updates in its "general" channel, as Zulip's do.
    const general = (await t.get('get_stream_id', { query: { stream: 'general' } })).body.stream_id;
    expectSuccess(res, {
      zulip_version: res.body.svc_version,
      zulip_merge_base: res.body.svc_version,
      zulip_feature_level: 472,
      zulip_plan_is_not_limited: true,
      svc_plan_is_not_limited: true,
      realm_zulip_update_announcements_stream_id: general,
      realm_svc_update_announcements_stream_id: general,
    });
  });

  it('off: only the neutral svc_* names', async () => {
    const neutral = await TestApp.start({ ZULIP_CLIENT_COMPAT: 'false' });
    try {
      const settings = await neutral.get('server_settings', { as: null });
      expect(Object.keys(settings.body).filter((k) => k.includes('zulip'))).toEqual([]);
      expect(settings.body.svc_feature_level).toBe(472);
      const register = await neutral.post('register', { form: {} });
      expect(Object.keys(register.body).filter((k) => k.includes('zulip'))).toEqual([]);
      const general = (await neutral.get('get_stream_id', { query: { stream: 'general' } })).body.stream_id;
      expect(register.body).toMatchObject({ svc_version: settings.body.svc_version, svc_plan_is_not_limited: true, realm_svc_update_announcements_stream_id: general });
      // Zulip's name of the extra emoji's type is not ours on input either.
      const status = { emoji_name: 'zulip', emoji_code: 'zulip', reaction_type: 'zulip_extra_emoji' };
      expectError(await neutral.post('users/me/status', { form: status }), 400, 'Invalid emoji type.');
      expectSuccess(await neutral.post('users/me/status', { form: { ...status, reaction_type: 'svc_extra_emoji' } }));
    } finally {
      await neutral.close();
    }
  });
});
