import { type RealmRecord, realmIconUrl } from '../../realm/index.js';
import { type ServerConfig, SVC_FEATURE_LEVEL, SVC_VERSION } from '../../shared/config/server-config.js';
import { paragraphHtml } from '@app/domain/shared';
import { spectatorsAllowed } from '@app/domain/messages';

/**
 * The version facts of server_settings and register. With ZULIP_CLIENT_COMPAT (the default)
 * also under Zulip's names, which Zulip's own clients read (the Python bindings refuse a server
 * without `zulip_version`).
 */
export const versionFields = (config: Pick<ServerConfig, 'zulipClientCompat'>) => ({
  svc_version: SVC_VERSION,
  svc_merge_base: SVC_VERSION,
  svc_feature_level: SVC_FEATURE_LEVEL,
  ...(config.zulipClientCompat ? { zulip_version: SVC_VERSION, zulip_merge_base: SVC_VERSION, zulip_feature_level: SVC_FEATURE_LEVEL } : {}),
});

/** Fields of the `realm` bundle whose Zulip names carry the brand word: both names under ZULIP_CLIENT_COMPAT. */
export function brandedRealmFields(config: Pick<ServerConfig, 'zulipClientCompat'>, fields: { planIsNotLimited: boolean; updateAnnouncementsStreamId: number }) {
  const neutral = { svc_plan_is_not_limited: fields.planIsNotLimited, realm_svc_update_announcements_stream_id: fields.updateAnnouncementsStreamId };
  if (!config.zulipClientCompat) return neutral;
  return { ...neutral, zulip_plan_is_not_limited: fields.planIsNotLimited, realm_zulip_update_announcements_stream_id: fields.updateAnnouncementsStreamId };
}


export function authenticationMethods(realm: RealmRecord): Record<string, boolean> {
  return {
    password: realm.passwordAuthEnabled,
    dev: false,
    email: realm.passwordAuthEnabled,
    ldap: false,
    remoteuser: false,
    github: false,
    azuread: false,
    gitlab: false,
    google: false,
    apple: false,
    saml: false,
    'openid connect': false,
  };
}

/**
 * The two bodies (compatible client, incompatible one) of each organization state: the realm
 * record read from the settings cache is one object until the organization changes, so a
 * cached read costs no hashing, URL building or escaping.
 */
const bodies = new WeakMap<RealmRecord, { config: ServerConfig; compatible: Record<string, unknown>; incompatible: Record<string, unknown> }>();

/** GET /server_settings, in Zulip's key order. The answer is shared: never modify it. */
export function serverSettings(realm: RealmRecord, config: ServerConfig, userAgent: string): Record<string, unknown> {
  let known = bodies.get(realm);
  if (known === undefined || known.config !== config) {
    known = { config, compatible: buildServerSettings(realm, config, false), incompatible: buildServerSettings(realm, config, true) };
    bodies.set(realm, known);
  }
  return /^ZulipInvalid\b/.test(userAgent) ? known.incompatible : known.compatible;
}

function buildServerSettings(realm: RealmRecord, config: ServerConfig, incompatible: boolean): Record<string, unknown> {
  return {
    authentication_methods: authenticationMethods(realm),
    ...versionFields(config),
    push_notifications_enabled: config.pushConfigured,
    is_incompatible: incompatible,
    email_auth_enabled: realm.passwordAuthEnabled,
    require_email_format_usernames: true,
    realm_url: config.realmUrl(realm.stringId),
    realm_name: realm.name,
    realm_icon: new URL(realmIconUrl(realm), `${config.realmUrl(realm.stringId)}/`).toString(),
    realm_description: paragraphHtml(realm.description),
    realm_web_public_access_enabled: spectatorsAllowed(realm, config.webPublicStreamsEnabled),
    external_authentication_methods: [],
    realm_uri: config.realmUrl(realm.stringId),
  };
}
