/**
 * The authorization matrix: every route of the live router × every kind of caller, each with
 * the outcome it must get (success, or the exact Zulip error), generated from the one table
 * below. The routes are read from the Express router at run time, so a route added without a
 * row fails this file ("no authorization row for GET /api/v1/foo"), and a row whose route is
 * gone fails too.
 *
 * Callers: the organization's owner, an administrator, a moderator, a member, a guest, a
 * (generic) bot owned by the member, an anonymous client (no credentials), and `other`: the
 * owner of a second organization, with valid credentials for its own organization (its own
 * Host). `other` is the most privileged caller there is in its organization, so whatever it
 * gets for an object of the first organization must read "does not exist", never "not
 * allowed": where a row names an object, `missing` sends the same request as the first
 * organization's owner with an id that does not exist, and the two answers must be identical.
 *
 * Each request is built just before it is sent, by the row, for the role sending it: requests
 * that change or consume something use a fixture made for that request alone (each role
 * deletes its own draft, archives its own channel ...), so outcomes do not depend on the order
 * of roles or rows. One app, one database, the shared fixtures made once.
 *
 * Rows whose outcome deliberately differs from Zulip say so in a comment.
 */
import type { Response } from 'supertest';
import pg from 'pg';
import { createChannels } from '../../support/channels.js';
import { sendToChannel } from '../../support/messages.js';
import { htmlPage } from '../../../src/shared/http/html-page.js';
import { type Account, encode, type Method, TestApp } from '../../support/test-app.js';
import { webAppScript } from '../../support/web-app-files.js';
import { ThumbnailRunner } from '../../../src/messages/application/thumbnail.runner.js';
import { type BrowserSession, cookieHeader, sessionOf, someToken } from '../../support/sessions.js';
import { type RouterLayer, routeLayers } from '../../../src/shared/http/routes.js';

const ROLES = ['owner', 'admin', 'moderator', 'member', 'guest', 'bot', 'anonymous', 'other'] as const;
type Role = (typeof ROLES)[number];

/** What a caller gets: success (any 2xx; a JSON body must be a success envelope), or an exact error. */
type Outcome = 'ok' | { status: number; code?: string; msg: string };
type Expectation = Record<Role, Outcome>;

interface Req {
  path: string;
  query?: Record<string, unknown>;
  form?: Record<string, unknown>;
  multipart?: Record<string, unknown>;
  file?: { field: string; body: Buffer; name: string };
  /** The caller (default: the role's account). */
  as?: Account | null;
  /** More headers (a browser form's CSRF cookie and token). */
  headers?: Record<string, string>;
}
type Build = (c: Ctx, role: Role) => Req | Promise<Req>;
interface Row {
  /** `METHOD path` as the router spells it. */
  route: string;
  /** A second row of a route (another kind of request to it) says what it is. */
  variant?: string;
  /** More to check of an answer than its outcome (e.g. that nothing of the first organization is in it). */
  check?: (c: Ctx, role: Role, res: Response) => void;
  req: Build;
  expect: Expectation;
  /** The first organization's owner sending this (a nonexistent object) gets exactly `expect.other`. */
  missing?: Build;
}

// --- outcomes -------------------------------------------------------------------------------

const OK = 'ok' as const;
const err = (msg: string, code = 'BAD_REQUEST', status = 400): Outcome => ({ status, code, msg });
const NOT_LOGGED_IN = err('Not logged in: API authentication or user session required', 'UNAUTHORIZED', 401);
const ADMIN = err('Must be an organization administrator', 'UNAUTHORIZED_PRINCIPAL');
const OWNER = err('Must be an organization owner', 'UNAUTHORIZED_PRINCIPAL');
const GUEST = err('Not allowed for guest users');
const BOT = err('This endpoint does not accept bot requests.');
const DENIED = err('Insufficient permission');
const NOT_ADMIN_400 = err('Must be an organization administrator');
const NO_USER = err('No such user');
const BAD_CHANNEL = err('Invalid channel ID');
/** Zulip's redirect to an image (an avatar, the organization's icon or logo): 302 with a Location and no body. */
const REDIRECT: Outcome = { status: 302, msg: 'non-envelope body: ' };
const METRICS_TOKEN_REQUIRED = err('Metrics token required: Authorization: Bearer <METRICS_TOKEN>', 'METRICS_TOKEN_REQUIRED', 401);
/** The sign-up pages' dead-link page (HTML, so the outcome is its status and opening). */
const DEAD_LINK: Outcome = { status: 404, msg: `non-envelope body: ${htmlPage('Confirmation link expired or deactivated', '').slice(0, 80)}` };
const CANNOT_ADMINISTER = err('You do not have permission to administer this channel.', 'CANNOT_ADMINISTER_CHANNEL');

type Overrides = Partial<Expectation>;
/** Everyone authenticated gets `base`, anonymous callers "not logged in", then the overrides. */
const e = (base: Outcome, o: Overrides = {}): Expectation => ({
  owner: base,
  admin: base,
  moderator: base,
  member: base,
  guest: base,
  bot: base,
  anonymous: NOT_LOGGED_IN,
  other: base,
  ...o,
});
/** Any authenticated caller. */
const everyone = (o: Overrides = {}) => e(OK, o);
/** Zulip's human-only endpoints (no bots). */
const humans = (o: Overrides = {}) => e(OK, { bot: BOT, ...o });
/** require_member_or_admin: no guests, no bots. */
const members = (o: Overrides = {}) => e(OK, { guest: GUEST, bot: BOT, ...o });
/** require_non_guest_user. */
const nonGuests = (o: Overrides = {}) => e(OK, { guest: GUEST, ...o });
/** require_realm_admin. */
const admins = (o: Overrides = {}) => e(OK, { moderator: ADMIN, member: ADMIN, guest: ADMIN, bot: ADMIN, ...o });
/** require_realm_owner. */
const owners = (o: Overrides = {}) => e(OK, { admin: OWNER, moderator: OWNER, member: OWNER, guest: OWNER, bot: OWNER, ...o });
/** No authentication at all. */
const open = (o: Overrides = {}) => e(OK, { anonymous: OK, ...o });

// --- the shared fixtures --------------------------------------------------------------------

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
const PASSWORD = 'Matrix-victim-Passphrase-77';
const OTHER_HOST = 'other.chat.example.com';
const MISSING = 999_999;

class Ctx {
  n = 0;
  acct!: Record<Role, Account | null>;
  /** The first organization's objects that requests refer to. */
  ids!: {
    channel: number; // public, every role of the first organization subscribed
    message: number; // in `channel`, sent by the member
    victim: number; // a plain member the requests act on
    victimEmail: string;
    channel2: number; // public, every role of the first organization subscribed
    otherChannel: number; // a channel of the second organization, its owner subscribed
    otherGroup: number; // role:everyone of the second organization
    otherBot: number; // a bot of the second organization's owner
    secret: number; // private, only the owner subscribed
    secretMessage: number; // the owner's, in `secret`
    lobby: number; // public, only the member subscribed (not the guest)
    lobbyMessage: number; // the member's, in `lobby`
    secretUpload: string; // path of an upload of the owner's, linked only from `secretMessage`
    group: number; // a user group made by the owner
    group2: number;
    linkifier: number;
    profileField: number;
    folder: number;
    domain: string;
    memberBot: number; // the member's bot (the `bot` role)
    upload: string; // path of an upload of the member's, linked from `message`
    emojiFile: string; // path of a custom emoji image
  };

  constructor(
    readonly t: TestApp,
    readonly db: pg.Client,
  ) {}

  unique(prefix: string): string {
    this.n += 1;
    return `${prefix}${this.n}`;
  }

  async ok(res: Response | Promise<Response>, what: string): Promise<Response> {
    const r = await res;
    if (r.status !== 200) throw new Error(`fixture ${what} failed: ${r.status} ${JSON.stringify(r.body)}`);
    return r;
  }

  /** An account of this role made for one request (the bot: a new bot of the member; other: a new user of the second organization). */
  async fresh(role: Role): Promise<Account | null> {
    const t = this.t;
    switch (role) {
      case 'anonymous':
        return null;
      case 'bot':
        return t.createBot(this.acct.member!, this.unique('fresh'));
      case 'other': {
        const email = `${this.unique('fresh')}@other.example.com`;
        await this.ok(t.post('users', { as: this.acct.other, form: { email, password: PASSWORD, full_name: `Person ${this.n}` } }), 'other user');
        return t.login(email, PASSWORD, OTHER_HOST);
      }
      default: {
        const role_ = { owner: 100, admin: 200, moderator: 300, member: 400, guest: 600 }[role];
        return t.createUser({ role: role_, email: `${this.unique('fresh')}@example.com` });
      }
    }
  }

  /** A new member of the first organization (as an object to act on); returns its id. */
  async victim(email = `${this.unique('victim')}@example.com`): Promise<number> {
    const r = await this.ok(this.t.post('users', { form: { email, password: PASSWORD, full_name: `Person ${this.n}` } }), 'victim');
    return r.body.user_id as number;
  }

  /** A new public channel of the first organization, `subscribers` subscribed by the owner. */
  async channel(subscribers: (Account | null)[] = []): Promise<{ id: number; name: string }> {
    const name = this.unique('chan');
    const principals = [this.t.owner.id, ...subscribers.filter((a): a is Account => a !== null && a.host === undefined).map((a) => a.id)];
    const ids = await createChannels(this.t, [name], { form: { principals } });
    return { id: ids[name], name };
  }

  /** Texts only the first organization's objects contain: no answer to `other` may show one. */
  markers(): string[] {
    return [this.ids.victimEmail, 'matrix-group', 'matrix-sub', 'FIX-(?P', 'Matrix folder', 'matrixemoji', 'matrix.example.org', this.ids.upload, 'lobby'];
  }

  /** A new message of the member's in the shared channel. */
  message(content = 'fixture'): Promise<number> {
    return sendToChannel(this.t, this.acct.member!, this.ids.channel, this.unique('topic'), content);
  }
}

// --- the table ------------------------------------------------------------------------------

const as = (c: Ctx, role: Role) => c.acct[role];
/** The role's own account, except `other`, whose request names the member's (first organization) object. */

const TABLE: Row[] = [
  // ---- realm: linkifiers, playgrounds, domains, settings
  { route: 'GET /api/v1/realm/linkifiers', req: () => ({ path: 'realm/linkifiers' }), expect: everyone() },
  {
    route: 'POST /api/v1/realm/filters',
    req: (c) => ({ path: 'realm/filters', form: { pattern: `${c.unique('L')}-(?P<id>[0-9]+)`, url_template: 'https://l.example.com/{id}' } }),
    expect: admins(),
  },
  {
    route: 'PATCH /api/v1/realm/filters/:filter_id',
    req: (c) => ({ path: `realm/filters/${c.ids.linkifier}`, form: { pattern: 'FIX-(?P<id>[0-9]+)', url_template: 'https://f.example.com/{id}' } }),
    expect: admins({ other: err('Linkifier not found.') }),
    missing: () => ({ path: `realm/filters/${MISSING}`, form: { pattern: 'FIX-(?P<id>[0-9]+)', url_template: 'https://f.example.com/{id}' } }),
  },
  {
    route: 'DELETE /api/v1/realm/filters/:filter_id',
    req: async (c) => {
      const r = await c.ok(c.t.post('realm/filters', { form: { pattern: `${c.unique('D')}-(?P<id>[0-9]+)`, url_template: 'https://d.example.com/{id}' } }), 'linkifier');
      return { path: `realm/filters/${r.body.id}` };
    },
    expect: admins({ other: err('Linkifier not found.') }),
    missing: () => ({ path: `realm/filters/${MISSING}` }),
  },
  {
    route: 'PATCH /api/v1/realm/linkifiers',
    req: async (c) => {
      const list = (await c.t.get('realm/linkifiers')).body.linkifiers as { id: number }[];
      return { path: 'realm/linkifiers', form: { ordered_linkifier_ids: list.map((l) => l.id) } };
    },
    expect: admins({ other: err('The ordered list must enumerate all existing linkifiers exactly once') }),
  },
  {
    route: 'POST /api/v1/realm/playgrounds',
    req: (c) => ({ path: 'realm/playgrounds', form: { name: c.unique('Play'), pygments_language: 'Python', url_template: 'https://p.example.com/?c={code}' } }),
    expect: admins(),
  },
  {
    route: 'DELETE /api/v1/realm/playgrounds/:playground_id',
    req: async (c) => {
      const r = await c.ok(c.t.post('realm/playgrounds', { form: { name: c.unique('Play'), pygments_language: 'Python', url_template: 'https://p.example.com/?c={code}' } }), 'playground');
      return { path: `realm/playgrounds/${r.body.id}` };
    },
    expect: admins({ other: err('Invalid playground') }),
    missing: () => ({ path: `realm/playgrounds/${MISSING}` }),
  },
  { route: 'GET /api/v1/realm/domains', req: () => ({ path: 'realm/domains' }), expect: everyone() },
  {
    route: 'POST /api/v1/realm/domains',
    req: (c) => ({ path: 'realm/domains', form: { domain: `${c.unique('d')}.example.org`, allow_subdomains: false } }),
    expect: owners(),
  },
  {
    route: 'PATCH /api/v1/realm/domains/:domain',
    req: (c) => ({ path: `realm/domains/${c.ids.domain}`, form: { allow_subdomains: true } }),
    expect: owners({ other: err('No entry found for domain matrix.example.org.') }),
  },
  {
    route: 'DELETE /api/v1/realm/domains/:domain',
    req: async (c) => {
      const domain = `${c.unique('gone')}.example.org`;
      await c.ok(c.t.post('realm/domains', { form: { domain, allow_subdomains: false } }), 'domain');
      return { path: `realm/domains/${domain}` };
    },
    expect: owners({ other: err('No entry found for domain gone0.example.org.') }),
  },
  { route: 'PATCH /api/v1/realm', req: (c) => ({ path: 'realm', form: { description: c.unique('Matrix org ') } }), expect: admins() },
  {
    route: 'PATCH /api/v1/realm',
    variant: 'naming a user group',
    // (A setting no other row depends on.)
    req: (c) => ({ path: 'realm', form: { can_summarize_topics_group: { new: c.ids.group } } }),
    expect: admins({ other: err('Invalid user group') }),
    missing: () => ({ path: 'realm', form: { can_summarize_topics_group: { new: MISSING } } }),
  },
  {
    route: 'PATCH /api/v1/realm',
    variant: 'naming a channel',
    req: (c) => ({ path: 'realm', form: { new_stream_announcements_stream_id: c.ids.channel } }),
    expect: admins({ other: BAD_CHANNEL }),
    missing: () => ({ path: 'realm', form: { new_stream_announcements_stream_id: MISSING } }),
  },

  // ---- organization data exports (each export row first clears the rate limit window: see finishedExport)
  {
    route: 'POST /api/v1/export/realm',
    req: async (c) => {
      await ageExports(c);
      return { path: 'export/realm' };
    },
    expect: admins(),
  },
  { route: 'GET /api/v1/export/realm', req: () => ({ path: 'export/realm' }), expect: admins() },
  { route: 'GET /api/v1/export/realm/consents', req: () => ({ path: 'export/realm/consents' }), expect: admins() },
  {
    route: 'DELETE /api/v1/export/realm/:export_id',
    // Each administrator deletes an archive of its own; the others name the shared one.
    req: async (c, role) => ({ path: `export/realm/${role === 'owner' || role === 'admin' ? (await finishedExport(c)).id : (await sharedExport(c)).id}` }),
    expect: admins({ other: err('Invalid data export ID') }),
    missing: () => ({ path: `export/realm/${MISSING}` }),
  },
  {
    route: 'GET /user_avatars/exports/:realm_id/:key/:name',
    req: async (c) => ({ path: new URL((await sharedExport(c)).url).pathname }),
    expect: admins({ other: err('File not found', 'NOT_FOUND', 404) }),
    missing: async (c) => ({ path: new URL((await sharedExport(c)).url).pathname.replace(/\/[0-9a-f]{32}\//, `/${'0'.repeat(32)}/`) }),
  },
  {
    route: 'PATCH /api/v1/realm/user_settings_defaults',
    req: () => ({ path: 'realm/user_settings_defaults', form: { enter_sends: true, web_home_view: 'recent' } }),
    expect: admins(),
  },
  {
    route: 'POST /api/v1/realm/deactivate',
    // An owner deactivates an organization made for that request alone (the second
    // organization's owner too: deactivating is of one's own organization).
    req: async (c, role) => ({ path: 'realm/deactivate', as: role === 'owner' || role === 'other' ? await c.t.createOrganization(c.unique('bye')) : undefined }),
    expect: owners(),
  },

  // ---- custom emoji
  { route: 'GET /api/v1/realm/emoji', req: () => ({ path: 'realm/emoji' }), expect: everyone() },
  {
    route: 'POST /api/v1/realm/emoji/*emoji_name',
    req: (c) => ({ path: `realm/emoji/${c.unique('emo')}`, file: { field: 'f1', body: PNG, name: 'e.png' } }),
    expect: members(),
  },
  {
    route: 'DELETE /api/v1/realm/emoji/*emoji_name',
    req: async (c) => {
      const name = c.unique('emo');
      await c.ok(c.t.http.post(`/api/v1/realm/emoji/${name}`).auth(c.acct.member!.email, c.acct.member!.apiKey).attach('f1', PNG, 'e.png'), 'emoji');
      return { path: `realm/emoji/${name}` };
    },
    // The emoji is the member's: its author and administrators may remove it.
    expect: e(err('Must be an organization administrator or emoji author'), {
      owner: OK,
      admin: OK,
      member: OK,
      other: err("Emoji 'emo0' does not exist", 'BAD_REQUEST', 404),
    }),
    missing: () => ({ path: 'realm/emoji/emo0' }),
  },
  { route: 'GET /user_avatars/:realm_id/emoji/images/:file_name', req: (c) => ({ path: c.ids.emojiFile }), expect: open() },

  // ---- avatars, the organization's icon and logos
  { route: 'POST /api/v1/users/me/avatar', req: () => ({ path: 'users/me/avatar', file: { field: 'file', body: PNG, name: 'me.png' } }), expect: everyone() },
  { route: 'DELETE /api/v1/users/me/avatar', req: () => ({ path: 'users/me/avatar' }), expect: everyone() },
  {
    route: 'GET /avatar/:email_or_id',
    req: (c) => ({ path: `/avatar/${c.ids.victim}` }),
    // Zulip's redirect: for another organization's user (or nobody) to a new Gravatar of the text.
    expect: e(REDIRECT),
    missing: () => ({ path: `/avatar/${MISSING}` }),
  },
  {
    route: 'GET /avatar/:email_or_id/medium',
    req: (c) => ({ path: `/avatar/${c.ids.victimEmail}/medium` }),
    expect: e(REDIRECT),
    missing: () => ({ path: '/avatar/nobody@example.com/medium' }),
  },
  { route: 'GET /user_avatars/:realm_id/:file_name', req: async (c) => ({ path: await storedAvatar(c) }), expect: open() },
  { route: 'POST /api/v1/realm/icon', req: () => ({ path: 'realm/icon', file: { field: 'file', body: PNG, name: 'icon.png' } }), expect: admins() },
  { route: 'DELETE /api/v1/realm/icon', req: () => ({ path: 'realm/icon' }), expect: admins() },
  { route: 'GET /api/v1/realm/icon', req: () => ({ path: 'realm/icon' }), expect: e(REDIRECT) },
  {
    route: 'POST /api/v1/realm/logo',
    req: () => ({ path: 'realm/logo', form: { night: false }, file: { field: 'file', body: PNG, name: 'logo.png' } }),
    expect: admins(),
  },
  { route: 'DELETE /api/v1/realm/logo', req: () => ({ path: 'realm/logo', form: { night: true } }), expect: admins() },
  {
    route: 'GET /api/v1/realm/logo',
    // The caller's organization has an uploaded day logo (without one there is nothing to redirect to).
    req: async (c, role) => {
      await uploadedLogo(c, role === 'other' ? c.acct.other! : c.t.owner);
      return { path: 'realm/logo', query: { night: false } };
    },
    expect: e(REDIRECT),
  },
  { route: 'GET /user_avatars/:realm_id/realm/:file_name', req: async (c) => ({ path: await storedIcon(c) }), expect: open() },

  // ---- user status, alert words, muted users, bot storage, settings, API key
  { route: 'POST /api/v1/users/me/status', req: () => ({ path: 'users/me/status', form: { status_text: 'busy' } }), expect: humans() },
  {
    route: 'POST /api/v1/users/:user_id/status',
    req: (c) => ({ path: `users/${c.ids.victim}/status`, form: { status_text: 'set by someone' } }),
    expect: admins({ moderator: DENIED, member: DENIED, guest: DENIED, bot: BOT, other: NO_USER }),
    missing: () => ({ path: `users/${MISSING}/status`, form: { status_text: 'set by someone' } }),
  },
  {
    route: 'GET /api/v1/users/:user_id/status',
    req: (c) => ({ path: `users/${c.ids.victim}/status` }),
    expect: everyone({ other: NO_USER }),
    missing: () => ({ path: `users/${MISSING}/status` }),
  },
  { route: 'GET /api/v1/users/me/alert_words', req: () => ({ path: 'users/me/alert_words' }), expect: everyone() },
  { route: 'POST /api/v1/users/me/onboarding_steps', req: () => ({ path: 'users/me/onboarding_steps', form: { onboarding_step: 'intro_resolve_topic' } }), expect: humans() },
  { route: 'GET /api/v1/navigation_views', req: () => ({ path: 'navigation_views' }), expect: everyone() },
  {
    route: 'POST /api/v1/navigation_views',
    req: (c) => ({ path: 'navigation_views', form: { fragment: c.unique('narrow/is/view'), is_pinned: true, name: c.unique('View ') } }),
    expect: everyone(),
  },
  {
    route: 'PATCH /api/v1/navigation_views/*fragment',
    // Each role changes its own view; the second organization's owner names the member's.
    req: async (c, role) => ({ path: `navigation_views/${await ownNavigationView(c, role)}`, form: { is_pinned: false } }),
    expect: everyone({ other: err('Navigation view does not exist.', 'BAD_REQUEST', 404) }),
    missing: () => ({ path: 'navigation_views/no-such-view', form: { is_pinned: false } }),
  },
  {
    route: 'DELETE /api/v1/navigation_views/*fragment',
    req: async (c, role) => ({ path: `navigation_views/${await ownNavigationView(c, role)}` }),
    expect: everyone({ other: err('Navigation view does not exist.', 'BAD_REQUEST', 404) }),
    missing: () => ({ path: 'navigation_views/no-such-view' }),
  },
  { route: 'POST /api/v1/users/me/alert_words', req: () => ({ path: 'users/me/alert_words', form: { alert_words: ['matrix'] } }), expect: everyone() },
  { route: 'DELETE /api/v1/users/me/alert_words', req: () => ({ path: 'users/me/alert_words', form: { alert_words: ['matrix'] } }), expect: everyone() },
  {
    route: 'POST /api/v1/users/me/muted_users/:muted_user_id',
    req: async (c) => ({ path: `users/me/muted_users/${await c.victim()}` }),
    expect: everyone({ other: NO_USER }),
    missing: () => ({ path: `users/me/muted_users/${MISSING}` }),
  },
  {
    route: 'DELETE /api/v1/users/me/muted_users/:muted_user_id',
    req: async (c, role) => {
      const victim = await c.victim();
      const me = as(c, role);
      if (me && role !== 'other') await c.t.post(`users/me/muted_users/${victim}`, { as: me });
      return { path: `users/me/muted_users/${victim}` };
    },
    expect: everyone({ other: NO_USER }),
    missing: () => ({ path: `users/me/muted_users/${MISSING}` }),
  },
  { route: 'GET /api/v1/bot_storage', req: () => ({ path: 'bot_storage' }), expect: e(err('Must be a bot user'), { bot: OK }) },
  { route: 'PUT /api/v1/bot_storage', req: () => ({ path: 'bot_storage', form: { storage: { k: 'v' } } }), expect: e(err('Must be a bot user'), { bot: OK }) },
  {
    route: 'DELETE /api/v1/bot_storage',
    req: async (c, role) => {
      if (role === 'bot') await c.t.call('put', 'bot_storage', { as: c.acct.bot, form: { storage: { gone: 'v' } } });
      return { path: 'bot_storage', form: { keys: ['gone'] } };
    },
    expect: e(err('Must be a bot user'), { bot: OK }),
  },
  { route: 'PATCH /api/v1/settings', req: () => ({ path: 'settings', form: { enter_sends: true } }), expect: humans() },
  { route: 'PATCH /api/v1/settings/display', req: () => ({ path: 'settings/display', form: { enter_sends: true } }), expect: humans() },
  { route: 'PATCH /api/v1/settings/notifications', req: () => ({ path: 'settings/notifications', form: { enter_sends: true } }), expect: humans() },
  {
    route: 'POST /api/v1/users/me/api_key/regenerate',
    req: async (c, role) => ({ path: 'users/me/api_key/regenerate', as: await c.fresh(role) }),
    expect: everyone(),
  },

  // ---- custom profile fields
  { route: 'GET /api/v1/realm/profile_fields', req: () => ({ path: 'realm/profile_fields' }), expect: everyone() },
  {
    route: 'POST /api/v1/realm/profile_fields',
    req: (c) => ({ path: 'realm/profile_fields', form: { name: c.unique('Field'), field_type: 1 } }),
    expect: admins(),
  },
  {
    route: 'PATCH /api/v1/realm/profile_fields',
    req: async (c) => {
      const fields = (await c.t.get('realm/profile_fields')).body.custom_fields as { id: number }[];
      return { path: 'realm/profile_fields', form: { order: fields.map((f) => f.id) } };
    },
    expect: admins({ other: err('Invalid order mapping.') }),
  },
  {
    route: 'PATCH /api/v1/realm/profile_fields/:field_id',
    req: (c) => ({ path: `realm/profile_fields/${c.ids.profileField}`, form: { hint: 'a hint' } }),
    expect: admins({ other: err('Field id 0 not found.') }),
    missing: () => ({ path: `realm/profile_fields/${MISSING}`, form: { hint: 'a hint' } }),
  },
  {
    route: 'DELETE /api/v1/realm/profile_fields/:field_id',
    req: async (c) => {
      const r = await c.ok(c.t.post('realm/profile_fields', { form: { name: c.unique('Gone'), field_type: 1 } }), 'profile field');
      return { path: `realm/profile_fields/${r.body.id}` };
    },
    expect: admins({ other: err('Field id 0 not found.') }),
    missing: () => ({ path: `realm/profile_fields/${MISSING}` }),
  },
  {
    route: 'PATCH /api/v1/users/me/profile_data',
    req: (c) => ({ path: 'users/me/profile_data', form: { data: [{ id: c.ids.profileField, value: 'mine' }] } }),
    expect: humans({ other: err('Field id 0 not found.') }),
    missing: () => ({ path: 'users/me/profile_data', form: { data: [{ id: MISSING, value: 'mine' }] } }),
  },
  {
    route: 'DELETE /api/v1/users/me/profile_data',
    req: (c) => ({ path: 'users/me/profile_data', form: { data: [c.ids.profileField] } }),
    expect: humans({ other: err('Field id 0 not found.') }),
    missing: () => ({ path: 'users/me/profile_data', form: { data: [MISSING] } }),
  },

  // ---- users
  {
    route: 'GET /api/v1/users',
    req: () => ({ path: 'users' }),
    expect: everyone(),
    check: (c, role, res) => {
      if (role === 'other') expect(res.body.members.map((u: { user_id: number }) => u.user_id)).not.toContain(c.ids.victim);
    },
  },
  {
    route: 'POST /api/v1/users',
    // Zulip also requires the server-granted can_create_users permission; here every administrator may (00-seed.md).
    req: (c) => ({ path: 'users', form: { email: `${c.unique('new')}@example.com`, password: PASSWORD, full_name: 'New user' } }),
    expect: admins(),
  },
  { route: 'GET /api/v1/users/me', req: () => ({ path: 'users/me' }), expect: everyone() },
  { route: 'DELETE /api/v1/users/me', req: async (c, role) => ({ path: 'users/me', as: await c.fresh(role) }), expect: everyone() },
  {
    route: 'GET /api/v1/users/:user_id',
    req: (c) => ({ path: `users/${c.ids.victim}` }),
    expect: everyone({ other: NO_USER }),
    missing: () => ({ path: `users/${MISSING}` }),
  },
  {
    route: 'GET /api/v1/users/:user_id',
    variant: 'by email',
    req: (c) => ({ path: `users/${c.ids.victimEmail}` }),
    expect: everyone({ other: NO_USER }),
    missing: () => ({ path: 'users/nobody@example.com' }),
  },
  {
    route: 'PATCH /api/v1/users/:user_id',
    req: (c) => ({ path: `users/${c.ids.victim}`, form: { full_name: 'Renamed victim' } }),
    expect: admins({ moderator: DENIED, member: DENIED, guest: DENIED, bot: DENIED, other: NO_USER }),
    missing: () => ({ path: `users/${MISSING}`, form: { full_name: 'Renamed victim' } }),
  },
  {
    route: 'DELETE /api/v1/users/:user_id',
    req: async (c) => ({ path: `users/${await c.victim()}` }),
    expect: admins({ moderator: DENIED, member: DENIED, guest: DENIED, bot: DENIED, other: NO_USER }),
    missing: () => ({ path: `users/${MISSING}` }),
  },
  {
    route: 'POST /api/v1/users/:user_id/reactivate',
    req: async (c) => {
      const id = await c.victim();
      await c.ok(c.t.delete(`users/${id}`), 'deactivate');
      return { path: `users/${id}/reactivate` };
    },
    expect: admins({ moderator: DENIED, member: DENIED, guest: DENIED, bot: DENIED, other: NO_USER }),
    missing: () => ({ path: `users/${MISSING}/reactivate` }),
  },

  // ---- bots
  {
    route: 'POST /api/v1/bots',
    req: (c) => ({ path: 'bots', form: { full_name: c.unique('A bot '), short_name: c.unique('b') } }),
    expect: members(),
  },
  { route: 'GET /api/v1/bots', req: () => ({ path: 'bots' }), expect: members() },
  {
    route: 'PATCH /api/v1/bots/:bot_id',
    req: (c) => ({ path: `bots/${c.ids.memberBot}`, form: { full_name: 'helper bot' } }),
    expect: members({ moderator: DENIED, other: err('No such bot') }),
    missing: () => ({ path: `bots/${MISSING}`, form: { full_name: 'helper bot' } }),
  },
  {
    route: 'PATCH /api/v1/bots/:bot_id',
    variant: 'giving the bot to another user',
    req: (c, role) =>
      role === 'other'
        ? { path: `bots/${c.ids.otherBot}`, form: { bot_owner_id: c.ids.victim } }
        : { path: `bots/${c.ids.memberBot}`, form: { bot_owner_id: c.acct.member!.id } },
    expect: members({ moderator: DENIED, other: err('Failed to change owner, no such user') }),
    missing: (c) => ({ path: `bots/${c.ids.memberBot}`, form: { bot_owner_id: MISSING } }),
  },
  {
    route: 'DELETE /api/v1/bots/:bot_id',
    req: async (c) => ({ path: `bots/${(await c.fresh('bot'))!.id}` }),
    // The bot is the member's: the member and administrators may deactivate it (no role decorator in Zulip).
    expect: e(DENIED, { owner: OK, admin: OK, member: OK, other: err('No such bot') }),
    missing: () => ({ path: `bots/${MISSING}` }),
  },
  {
    route: 'GET /api/v1/bots/:bot_id/api_key',
    req: (c) => ({ path: `bots/${c.ids.memberBot}/api_key` }),
    expect: members({ moderator: DENIED, other: err('No such bot') }),
    missing: () => ({ path: `bots/${MISSING}/api_key` }),
  },
  {
    route: 'POST /api/v1/bots/:bot_id/api_key/regenerate',
    req: async (c) => ({ path: `bots/${(await c.fresh('bot'))!.id}/api_key/regenerate` }),
    expect: members({ moderator: DENIED, other: err('No such bot') }),
    missing: () => ({ path: `bots/${MISSING}/api_key/regenerate` }),
  },

  // ---- user groups
  { route: 'GET /api/v1/user_groups', req: () => ({ path: 'user_groups' }), expect: members() },
  {
    route: 'POST /api/v1/user_groups/create',
    req: (c) => ({ path: 'user_groups/create', form: { name: c.unique('grp'), description: 'd', members: [c.ids.victim] } }),
    expect: members({ other: err('Invalid user ID: 0') }),
  },
  {
    route: 'POST /api/v1/user_groups/create',
    variant: 'with a subgroup',
    req: (c) => ({ path: 'user_groups/create', form: { name: c.unique('grp'), description: 'd', members: [], subgroups: [c.ids.group2] } }),
    expect: members({ other: err('Invalid user group ID: 0') }),
    missing: (c) => ({ path: 'user_groups/create', form: { name: c.unique('grp'), description: 'd', members: [], subgroups: [MISSING] } }),
  },
  {
    route: 'POST /api/v1/user_groups/:user_group_id/members',
    variant: "the second organization's group, the first organization's user",
    req: async (c, role) => {
      const as_ = role === 'other' ? c.acct.other : c.t.owner;
      const r = await c.ok(c.t.post('user_groups/create', { as: as_, form: { name: c.unique('grp'), description: 'd', members: [] } }), 'group');
      return { path: `user_groups/${r.body.group_id}/members`, form: { add: [c.ids.victim] } };
    },
    expect: members({ admin: DENIED, moderator: DENIED, member: DENIED, other: err('Invalid user ID: 0') }),
    missing: async (c) => {
      const r = await c.ok(c.t.post('user_groups/create', { form: { name: c.unique('grp'), description: 'd', members: [] } }), 'group');
      return { path: `user_groups/${r.body.group_id}/members`, form: { add: [MISSING] } };
    },
  },
  {
    route: 'PATCH /api/v1/user_groups/:user_group_id',
    req: (c) => ({ path: `user_groups/${c.ids.group}`, form: { description: 'described' } }),
    expect: members({ admin: DENIED, moderator: DENIED, member: DENIED, other: err('Invalid user group') }),
    missing: () => ({ path: `user_groups/${MISSING}`, form: { description: 'described' } }),
  },
  {
    route: 'POST /api/v1/user_groups/:user_group_id/deactivate',
    req: async (c) => {
      const r = await c.ok(c.t.post('user_groups/create', { form: { name: c.unique('grp'), description: 'd', members: [] } }), 'group');
      return { path: `user_groups/${r.body.group_id}/deactivate` };
    },
    // No role decorator in Zulip: guests and bots reach the permission check (can_manage_all_groups: owners).
    expect: e(DENIED, { owner: OK, other: err('Invalid user group') }),
    missing: () => ({ path: `user_groups/${MISSING}/deactivate` }),
  },
  {
    route: 'POST /api/v1/user_groups/:user_group_id/members',
    req: async (c) => {
      const r = await c.ok(c.t.post('user_groups/create', { form: { name: c.unique('grp'), description: 'd', members: [] } }), 'group');
      return { path: `user_groups/${r.body.group_id}/members`, form: { add: [c.ids.victim] } };
    },
    expect: members({ admin: DENIED, moderator: DENIED, member: DENIED, other: err('Invalid user group') }),
    missing: (c) => ({ path: `user_groups/${MISSING}/members`, form: { add: [c.ids.victim] } }),
  },
  {
    route: 'GET /api/v1/user_groups/:user_group_id/members',
    req: (c) => ({ path: `user_groups/${c.ids.group}/members` }),
    expect: members({ other: err('Invalid user group') }),
    missing: () => ({ path: `user_groups/${MISSING}/members` }),
  },
  {
    route: 'GET /api/v1/user_groups/:user_group_id/subgroups',
    req: (c) => ({ path: `user_groups/${c.ids.group}/subgroups` }),
    expect: members({ other: err('Invalid user group') }),
    missing: () => ({ path: `user_groups/${MISSING}/subgroups` }),
  },
  {
    route: 'POST /api/v1/user_groups/:user_group_id/subgroups',
    req: async (c) => {
      const r = await c.ok(c.t.post('user_groups/create', { form: { name: c.unique('grp'), description: 'd', members: [] } }), 'group');
      return { path: `user_groups/${r.body.group_id}/subgroups`, form: { add: [c.ids.group2] } };
    },
    expect: members({ admin: DENIED, moderator: DENIED, member: DENIED, other: err('Invalid user group') }),
    missing: (c) => ({ path: `user_groups/${MISSING}/subgroups`, form: { add: [c.ids.group2] } }),
  },
  {
    route: 'GET /api/v1/user_groups/:user_group_id/members/:user_id',
    req: (c) => ({ path: `user_groups/${c.ids.group}/members/${c.ids.victim}` }),
    expect: members({ other: err('Invalid user group') }),
    missing: (c) => ({ path: `user_groups/${MISSING}/members/${c.ids.victim}` }),
  },

  {
    route: 'GET /api/v1/user_groups/:user_group_id/members/:user_id',
    variant: "the second organization's group, the first organization's user",
    req: (c, role) => ({ path: `user_groups/${role === 'other' ? c.ids.otherGroup : c.ids.group}/members/${c.ids.victim}` }),
    expect: members({ other: NO_USER }),
    missing: (c) => ({ path: `user_groups/${c.ids.group}/members/${MISSING}` }),
  },

  // ---- authentication and account pages (no credentials needed)
  {
    route: 'POST /api/v1/fetch_api_key',
    req: async (c) => {
      const email = `${c.unique('login')}@example.com`;
      await c.ok(c.t.post('users', { form: { email, password: PASSWORD, full_name: `Person ${c.n}` } }), 'login user');
      return { path: 'fetch_api_key', form: { username: email, password: PASSWORD } };
    },
    // The second organization has no such account: a first-organization login fails there.
    expect: open({ other: err('Your username or password is incorrect', 'AUTHENTICATION_FAILED', 401) }),
  },
  // The web app's login and logout: browser forms (the CSRF token; credentials in headers mean nothing there).
  {
    route: 'POST /accounts/login',
    req: async (c) => {
      const email = `${c.unique('browser')}@example.com`;
      await c.ok(c.t.post('users', { form: { email, password: PASSWORD, full_name: `Person ${c.n}` } }), 'login user');
      return { path: '/accounts/login/', form: { username: email, password: PASSWORD }, headers: csrfPair() };
    },
    // The second organization has no such account: a first-organization login fails there.
    expect: open({ other: err('Your username or password is incorrect', 'AUTHENTICATION_FAILED', 401) }),
  },
  { route: 'POST /accounts/logout', req: () => ({ path: '/accounts/logout/', headers: csrfPair() }), expect: open() },
  {
    route: 'GET /accounts/confirm_new_email/:key',
    req: async (c) => ({ path: `/accounts/confirm_new_email/${await emailChangeKey(c)}` }),
    expect: open(),
  },
  {
    route: 'POST /accounts/confirm_new_email',
    req: async (c) => ({ path: '/accounts/confirm_new_email', form: { key: await emailChangeKey(c) } }),
    expect: open(),
  },
  { route: 'GET /accounts/password/reset', req: () => ({ path: '/accounts/password/reset/' }), expect: open() },
  {
    route: 'POST /accounts/password/reset',
    // The same page for every caller and address (no account here: nothing is sent).
    req: (c) => ({ path: '/accounts/password/reset/', form: { email: `${c.unique('nobody')}@example.com` } }),
    expect: open(),
  },
  {
    route: 'GET /accounts/password/reset/:token',
    req: async (c) => ({ path: `/accounts/password/reset/${await passwordResetToken(c)}/` }),
    expect: open(),
  },
  {
    route: 'POST /accounts/password/reset/:token',
    req: async (c) => ({ path: `/accounts/password/reset/${await passwordResetToken(c)}/`, form: { new_password1: PASSWORD, new_password2: PASSWORD } }),
    expect: open(),
  },

  // Joining from an invitation: the Host names the organization, so `other` (its own Host) finds
  // no such link: the same dead-link page as a key that never existed.
  {
    route: 'GET /accounts/do_confirm/:key',
    req: async (c) => ({ path: `/accounts/do_confirm/${await invitationKey(c)}` }),
    expect: open({ other: DEAD_LINK }),
    missing: () => ({ path: `/accounts/do_confirm/${'a'.repeat(24)}` }),
  },
  {
    route: 'POST /accounts/do_confirm/:key',
    req: async (c) => ({ path: `/accounts/do_confirm/${await invitationKey(c)}`, form: { full_name: 'Invited Person', password: PASSWORD } }),
    expect: open({ other: DEAD_LINK }),
    missing: () => ({ path: `/accounts/do_confirm/${'a'.repeat(24)}`, form: { full_name: 'Invited Person', password: PASSWORD } }),
  },
  {
    route: 'GET /join/:key',
    req: async (c) => ({ path: `/join/${await multiuseKey(c)}/` }),
    expect: open({ other: DEAD_LINK }),
    missing: () => ({ path: `/join/${'a'.repeat(24)}/` }),
  },
  {
    route: 'POST /join/:key',
    req: async (c) => ({ path: `/join/${await multiuseKey(c)}/`, form: { email: `${c.unique('joiner')}@example.com`, full_name: 'Joiner', password: PASSWORD } }),
    expect: open({ other: DEAD_LINK }),
    missing: (c) => ({ path: `/join/${'a'.repeat(24)}/`, form: { email: `${c.unique('joiner')}@example.com`, full_name: 'Joiner', password: PASSWORD } }),
  },

  // ---- subscriptions and channels
  {
    route: 'GET /api/v1/users/me/subscriptions',
    req: () => ({ path: 'users/me/subscriptions', query: { include_subscribers: true } }),
    expect: everyone(),
    check: (c, role, res) => {
      const ids = res.body.subscriptions.map((s: { stream_id: number }) => s.stream_id);
      if (role !== 'owner') expect(ids).not.toContain(c.ids.secret);
      if (role === 'guest' || role === 'other') expect(ids).not.toContain(c.ids.lobby);
    },
  },
  {
    route: 'POST /api/v1/users/me/subscriptions',
    req: (c) => ({ path: 'users/me/subscriptions', form: { subscriptions: [{ name: c.unique('sub') }] } }),
    expect: nonGuests(),
  },
  {
    route: 'POST /api/v1/default_streams',
    req: async (c) => ({ path: 'default_streams', form: { stream_id: (await c.channel()).id } }),
    expect: admins({ other: BAD_CHANNEL }),
    missing: () => ({ path: 'default_streams', form: { stream_id: MISSING } }),
  },
  {
    route: 'DELETE /api/v1/default_streams',
    req: async (c) => {
      const { id } = await c.channel();
      await c.ok(c.t.post('default_streams', { form: { stream_id: id } }), 'default channel');
      return { path: 'default_streams', form: { stream_id: id } };
    },
    expect: admins({ other: BAD_CHANNEL }),
    missing: () => ({ path: 'default_streams', form: { stream_id: MISSING } }),
  },
  {
    route: 'POST /api/v1/default_stream_groups/create',
    req: (c) => ({ path: 'default_stream_groups/create', form: { group_name: c.unique('dsg'), description: '', stream_names: [] } }),
    expect: admins(),
  },
  {
    route: 'POST /api/v1/default_stream_groups/create',
    variant: 'naming a channel',
    req: (c) => ({ path: 'default_stream_groups/create', form: { group_name: c.unique('dsg'), description: '', stream_names: ['matrix'] } }),
    expect: admins({ other: err("Invalid channel name 'matrix'") }),
  },
  {
    route: 'PATCH /api/v1/default_stream_groups/:group_id',
    req: async (c) => ({ path: `default_stream_groups/${await defaultChannelGroup(c)}`, form: { new_description: 'changed' } }),
    expect: admins({ other: err("Default channel group with id '0' does not exist.") }),
    missing: () => ({ path: `default_stream_groups/${MISSING}`, form: { new_description: 'changed' } }),
  },
  {
    route: 'PATCH /api/v1/default_stream_groups/:group_id/streams',
    req: async (c) => ({ path: `default_stream_groups/${await defaultChannelGroup(c)}/streams`, form: { op: 'add', stream_names: ['matrix'] } }),
    expect: admins({ other: err("Default channel group with id '0' does not exist.") }),
    missing: () => ({ path: `default_stream_groups/${MISSING}/streams`, form: { op: 'add', stream_names: ['matrix'] } }),
  },
  {
    route: 'DELETE /api/v1/default_stream_groups/:group_id',
    req: async (c) => ({ path: `default_stream_groups/${await defaultChannelGroup(c)}` }),
    expect: admins({ other: err("Default channel group with id '0' does not exist.") }),
    missing: () => ({ path: `default_stream_groups/${MISSING}` }),
  },
  {
    route: 'DELETE /api/v1/users/me/subscriptions',
    req: async (c, role) => {
      const { name } = await c.channel([as(c, role)]);
      return { path: 'users/me/subscriptions', form: { subscriptions: [name] } };
    },
    expect: everyone({ other: err("Channel 'chan0' does not exist", 'STREAM_DOES_NOT_EXIST') }),
  },
  {
    route: 'PATCH /api/v1/users/me/subscriptions',
    // The subscribe step of Zulip's update_subscriptions_backend is require_non_guest_user.
    req: (c) => ({ path: 'users/me/subscriptions', form: { add: [{ name: c.unique('bulk') }], delete: [] } }),
    expect: nonGuests(),
  },
  {
    route: 'PATCH /api/v1/users/me/subscriptions/muted_topics',
    req: (c) => ({ path: 'users/me/subscriptions/muted_topics', form: { stream_id: c.ids.channel, topic: 'muted', op: 'add' } }),
    expect: everyone({ other: BAD_CHANNEL }),
    missing: () => ({ path: 'users/me/subscriptions/muted_topics', form: { stream_id: MISSING, topic: 'muted', op: 'add' } }),
  },
  {
    route: 'POST /api/v1/users/me/subscriptions/properties',
    req: (c) => ({ path: 'users/me/subscriptions/properties', form: { subscription_data: [{ stream_id: c.ids.channel, property: 'color', value: '#abcdef' }] } }),
    expect: everyone({ other: BAD_CHANNEL }),
    missing: () => ({ path: 'users/me/subscriptions/properties', form: { subscription_data: [{ stream_id: MISSING, property: 'color', value: '#abcdef' }] } }),
  },
  {
    route: 'PATCH /api/v1/users/me/subscriptions/:stream_id',
    req: (c) => ({ path: `users/me/subscriptions/${c.ids.channel}`, form: { property: 'color', value: '#abcdef' } }),
    expect: everyone({ other: BAD_CHANNEL }),
    missing: () => ({ path: `users/me/subscriptions/${MISSING}`, form: { property: 'color', value: '#abcdef' } }),
  },
  {
    // The seed's single-channel alternative (00-seed.md); Zulip itself routes only PATCH here.
    route: 'POST /api/v1/users/me/subscriptions/:stream_id',
    req: (c) => ({ path: `users/me/subscriptions/${c.ids.channel}`, form: { property: 'color', value: '#abcdef' } }),
    expect: everyone({ other: BAD_CHANNEL }),
    missing: () => ({ path: `users/me/subscriptions/${MISSING}`, form: { property: 'color', value: '#abcdef' } }),
  },
  {
    route: 'GET /api/v1/users/:user_id/subscriptions/:stream_id',
    req: (c) => ({ path: `users/${c.ids.victim}/subscriptions/${c.ids.channel}` }),
    expect: everyone({ other: NO_USER }),
    missing: (c) => ({ path: `users/${MISSING}/subscriptions/${c.ids.channel}` }),
  },
  {
    route: 'GET /api/v1/users/:user_id/channels',
    req: (c) => ({ path: `users/${c.ids.victim}/channels` }),
    expect: everyone({ other: NO_USER }),
    missing: () => ({ path: `users/${MISSING}/channels` }),
  },
  {
    route: 'GET /api/v1/streams',
    req: () => ({ path: 'streams', query: { include_all: true } }),
    expect: everyone(),
    check: (c, role, res) => {
      const ids = res.body.streams.map((s: { stream_id: number }) => s.stream_id);
      // Administrators see every channel's metadata; others the public ones (guests: their own) and their private ones.
      const visible = {
        owner: [c.ids.channel, c.ids.lobby, c.ids.secret],
        admin: [c.ids.channel, c.ids.lobby, c.ids.secret],
        moderator: [c.ids.channel, c.ids.lobby],
        member: [c.ids.channel, c.ids.lobby],
        guest: [c.ids.channel],
        bot: [c.ids.channel, c.ids.lobby],
        anonymous: [],
        other: [],
      }[role];
      expect(ids.filter((id: number) => [c.ids.channel, c.ids.lobby, c.ids.secret].includes(id)).sort()).toEqual([...visible].sort());
    },
  },
  {
    route: 'GET /api/v1/streams/:stream_id',
    req: (c) => ({ path: `streams/${c.ids.channel}` }),
    expect: everyone({ other: BAD_CHANNEL }),
    missing: () => ({ path: `streams/${MISSING}` }),
  },
  {
    route: 'GET /api/v1/streams/:stream_id',
    variant: 'a private channel of the owner alone',
    req: (c) => ({ path: `streams/${c.ids.secret}` }),
    expect: everyone({ moderator: BAD_CHANNEL, member: BAD_CHANNEL, guest: BAD_CHANNEL, bot: BAD_CHANNEL, other: BAD_CHANNEL }),
  },
  {
    route: 'GET /api/v1/streams/:stream_id',
    variant: 'a public channel the guest is not subscribed to',
    req: (c) => ({ path: `streams/${c.ids.lobby}` }),
    expect: everyone({ guest: BAD_CHANNEL, other: BAD_CHANNEL }),
  },
  {
    route: 'GET /api/v1/streams/:stream_id/members',
    req: (c) => ({ path: `streams/${c.ids.channel}/members` }),
    expect: everyone({ other: BAD_CHANNEL }),
    missing: () => ({ path: `streams/${MISSING}/members` }),
  },
  {
    route: 'GET /api/v1/streams/:stream_id/email_address',
    req: (c) => ({ path: `streams/${c.ids.channel}/email_address` }),
    expect: everyone({ other: BAD_CHANNEL }),
    missing: () => ({ path: `streams/${MISSING}/email_address` }),
  },
  {
    route: 'PATCH /api/v1/streams/:stream_id',
    req: (c) => ({ path: `streams/${c.ids.channel}`, form: { description: 'Described' } }),
    expect: e(CANNOT_ADMINISTER, { owner: OK, admin: OK, other: BAD_CHANNEL }),
    missing: () => ({ path: `streams/${MISSING}`, form: { description: 'Described' } }),
  },
  {
    route: 'DELETE /api/v1/streams/:stream_id',
    req: async (c, role) => ({ path: `streams/${(await c.channel([as(c, role)])).id}` }),
    expect: e(CANNOT_ADMINISTER, { owner: OK, admin: OK, other: BAD_CHANNEL }),
    missing: () => ({ path: `streams/${MISSING}` }),
  },
  {
    route: 'GET /api/v1/get_stream_id',
    req: () => ({ path: 'get_stream_id', query: { stream: 'matrix' } }),
    expect: everyone({ other: err("Invalid channel name 'matrix'") }),
  },
  {
    route: 'POST /api/v1/users/me/subscriptions',
    variant: 'subscribing another user',
    req: (c) => ({ path: 'users/me/subscriptions', form: { subscriptions: [{ name: c.unique('sub') }], principals: [c.ids.victim] } }),
    expect: nonGuests({ other: NO_USER }),
    missing: (c) => ({ path: 'users/me/subscriptions', form: { subscriptions: [{ name: c.unique('sub') }], principals: [MISSING] } }),
  },
  {
    route: 'POST /api/v1/users/me/subscriptions',
    variant: 'subscribing another user by email',
    req: (c) => ({ path: 'users/me/subscriptions', form: { subscriptions: [{ name: c.unique('sub') }], principals: [c.ids.victimEmail] } }),
    expect: nonGuests({ other: err('No such user') }),
    missing: (c) => ({ path: 'users/me/subscriptions', form: { subscriptions: [{ name: c.unique('sub') }], principals: ['nobody@example.com'] } }),
  },
  {
    route: 'POST /api/v1/channels/create',
    variant: 'with another user subscribed',
    req: (c) => ({ path: 'channels/create', form: { name: c.unique('created'), subscribers: [c.ids.victim] } }),
    expect: nonGuests({ other: NO_USER }),
    missing: (c) => ({ path: 'channels/create', form: { name: c.unique('created'), subscribers: [MISSING] } }),
  },
  {
    route: 'POST /api/v1/channels/create',
    req: (c) => ({ path: 'channels/create', form: { name: c.unique('created'), subscribers: [] } }),
    expect: nonGuests(),
  },
  { route: 'GET /api/v1/channel_folders', req: () => ({ path: 'channel_folders' }), expect: everyone() },
  {
    route: 'POST /api/v1/channel_folders/create',
    req: (c) => ({ path: 'channel_folders/create', form: { name: c.unique('Folder'), description: '' } }),
    expect: admins(),
  },
  {
    route: 'PATCH /api/v1/channel_folders',
    req: async (c) => {
      const folders = (await c.t.get('channel_folders', { query: { include_archived: true } })).body.channel_folders as { id: number }[];
      return { path: 'channel_folders', form: { order: folders.map((f) => f.id) } };
    },
    expect: admins({ other: err('Invalid order mapping.') }),
  },
  {
    route: 'PATCH /api/v1/channel_folders/:channel_folder_id',
    req: (c) => ({ path: `channel_folders/${c.ids.folder}`, form: { description: 'Described' } }),
    expect: admins({ other: err('Invalid channel folder ID') }),
    missing: () => ({ path: `channel_folders/${MISSING}`, form: { description: 'Described' } }),
  },
  {
    route: 'GET /api/v1/users/me/:stream_id/topics',
    req: (c) => ({ path: `users/me/${c.ids.channel}/topics` }),
    expect: everyone({ other: BAD_CHANNEL }),
    missing: () => ({ path: `users/me/${MISSING}/topics` }),
  },

  // ---- messages
  {
    route: 'GET /api/v1/messages/matches_narrow',
    req: (c) => ({ path: 'messages/matches_narrow', query: { msg_ids: [c.ids.message, c.ids.lobbyMessage, c.ids.secretMessage], narrow: [] } }),
    expect: everyone(),
    // Only messages the caller received (Zulip reads its own message rows).
    check: (c, role, res) => {
      const received = { owner: [c.ids.message, c.ids.secretMessage], member: [c.ids.message, c.ids.lobbyMessage], other: [] }[role as string] ?? [c.ids.message];
      expect(Object.keys(res.body.messages).map(Number).sort()).toEqual([...received].sort());
    },
  },
  { route: 'POST /api/v1/messages/render', req: () => ({ path: 'messages/render', form: { content: '**hi**' } }), expect: everyone() },
  {
    route: 'GET /api/v1/messages/:message_id/read_receipts',
    req: (c) => ({ path: `messages/${c.ids.message}/read_receipts` }),
    expect: everyone({ other: err('Invalid message(s)') }),
    missing: () => ({ path: `messages/${MISSING}/read_receipts` }),
  },
  {
    route: 'POST /api/v1/user_topics',
    req: (c) => ({ path: 'user_topics', form: { stream_id: c.ids.channel, topic: 'followed', visibility_policy: 3 } }),
    expect: everyone({ other: BAD_CHANNEL }),
    missing: () => ({ path: 'user_topics', form: { stream_id: MISSING, topic: 'followed', visibility_policy: 3 } }),
  },
  {
    route: 'POST /api/v1/streams/:stream_id/delete_topic',
    req: async (c) => {
      const topic = c.unique('doomed');
      await sendToChannel(c.t, c.acct.member!, c.ids.channel, topic, 'x');
      return { path: `streams/${c.ids.channel}/delete_topic`, form: { topic_name: topic } };
    },
    expect: admins({ other: BAD_CHANNEL }),
    missing: () => ({ path: `streams/${MISSING}/delete_topic`, form: { topic_name: 'doomed' } }),
  },
  {
    route: 'POST /api/v1/messages',
    req: (c) => ({ path: 'messages', form: { type: 'stream', to: c.ids.channel, topic: 'sent', content: 'hello' } }),
    expect: everyone({ other: err(`Channel with ID '0' does not exist`, 'STREAM_DOES_NOT_EXIST') }),
  },
  {
    route: 'POST /api/v1/messages',
    variant: 'to a private channel of the owner alone',
    req: (c) => ({ path: 'messages', form: { type: 'stream', to: c.ids.secret, topic: 'sent', content: 'hello' } }),
    expect: e(err("Not authorized to send to channel 'secret'"), { owner: OK, anonymous: NOT_LOGGED_IN, other: err(`Channel with ID '0' does not exist`, 'STREAM_DOES_NOT_EXIST') }),
  },
  {
    route: 'POST /api/v1/messages',
    variant: 'to a public channel the guest is not subscribed to',
    req: (c) => ({ path: 'messages', form: { type: 'stream', to: c.ids.lobby, topic: 'sent', content: 'hello' } }),
    expect: everyone({ guest: err("Not authorized to send to channel 'lobby'"), other: err(`Channel with ID '0' does not exist`, 'STREAM_DOES_NOT_EXIST') }),
  },
  {
    route: 'POST /api/v1/messages',
    variant: 'direct message',
    req: (c) => ({ path: 'messages', form: { type: 'direct', to: [c.ids.victim], content: 'hello' } }),
    expect: everyone({ other: err('Invalid user ID 0') }),
    missing: () => ({ path: 'messages', form: { type: 'direct', to: [MISSING], content: 'hello' } }),
  },
  {
    route: 'POST /api/v1/messages',
    variant: 'direct message by email',
    req: (c) => ({ path: 'messages', form: { type: 'direct', to: [c.ids.victimEmail], content: 'hello' } }),
    expect: everyone({ other: err("Invalid email 'victim@example.com'") }),
  },
  // No language model on this server: Zulip's answer without TOPIC_SUMMARIZATION_MODEL, for every caller.
  { route: 'GET /api/v1/messages/summary', req: () => ({ path: 'messages/summary', query: { narrow: [] } }), expect: e(err('AI features are not enabled on this server.')) },
  {
    route: 'GET /api/v1/messages',
    req: () => ({ path: 'messages', query: { anchor: 'newest', num_before: 5, num_after: 0 } }),
    expect: everyone(),
    check: (c, role, res) => {
      if (role === 'other') expect(res.body.messages.map((m: { id: number }) => m.id)).not.toContain(c.ids.message);
    },
  },
  {
    route: 'GET /api/v1/messages',
    variant: "narrowed to the first organization's channel",
    req: (c) => ({ path: 'messages', query: { anchor: 'newest', num_before: 5, num_after: 0, narrow: [{ operator: 'channel', operand: c.ids.channel }] } }),
    expect: everyone({ other: err('Invalid narrow operator: unknown channel 0', 'BAD_NARROW') }),
    missing: () => ({ path: 'messages', query: { anchor: 'newest', num_before: 5, num_after: 0, narrow: [{ operator: 'channel', operand: MISSING }] } }),
  },
  {
    route: 'GET /api/v1/messages/:message_id',
    req: (c) => ({ path: `messages/${c.ids.message}` }),
    expect: everyone({ other: err('Invalid message(s)') }),
    missing: () => ({ path: `messages/${MISSING}` }),
  },
  {
    route: 'PATCH /api/v1/messages/:message_id',
    req: async (c) => ({ path: `messages/${await c.message()}`, form: { content: 'edited' } }),
    // The member's message: only its sender edits its content.
    expect: e(err("You don't have permission to edit this message"), { member: OK, other: err('Invalid message(s)') }),
    missing: () => ({ path: `messages/${MISSING}`, form: { content: 'edited' } }),
  },
  {
    route: 'PATCH /api/v1/messages/:message_id',
    variant: 'moving to another channel',
    req: async (c, role) => {
      const me = objectOwner(c, role);
      const [from, to] = role === 'other' ? [c.ids.otherChannel, c.ids.channel] : [c.ids.channel, c.ids.channel2];
      const id = await sendToChannel(c.t, role === 'other' ? c.acct.other! : me, from, c.unique('moving'), 'x');
      return { path: `messages/${id}`, form: { stream_id: to } };
    },
    // Each role moves its own message (can_move_messages_between_channels_group: members); the
    // second organization's owner cannot move its message into the first organization.
    expect: everyone({ guest: err("You don't have permission to move this message"), other: BAD_CHANNEL }),
    missing: async (c) => ({ path: `messages/${await c.message()}`, form: { stream_id: MISSING } }),
  },
  {
    route: 'DELETE /api/v1/messages/:message_id',
    req: async (c) => ({ path: `messages/${await c.message()}` }),
    // The member's message: its sender (can_delete_own_message_group) and administrators (can_delete_any_message_group).
    expect: e(err("You don't have permission to delete this message"), { owner: OK, admin: OK, member: OK, other: err('Invalid message(s)') }),
    missing: () => ({ path: `messages/${MISSING}` }),
  },
  {
    route: 'GET /api/v1/messages/:message_id',
    variant: 'in a private channel of the owner alone',
    req: (c) => ({ path: `messages/${c.ids.secretMessage}` }),
    expect: e(err('Invalid message(s)'), { owner: OK, anonymous: NOT_LOGGED_IN }),
  },
  {
    route: 'GET /api/v1/messages/:message_id',
    variant: 'in a public channel the guest is not subscribed to',
    req: (c) => ({ path: `messages/${c.ids.lobbyMessage}` }),
    expect: everyone({ guest: err('Invalid message(s)'), other: err('Invalid message(s)') }),
  },
  {
    route: 'GET /api/v1/messages/:message_id/history',
    variant: 'in a private channel of the owner alone',
    req: (c) => ({ path: `messages/${c.ids.secretMessage}/history` }),
    expect: e(err('Invalid message(s)'), { owner: OK, anonymous: NOT_LOGGED_IN }),
  },
  {
    route: 'GET /api/v1/messages/:message_id/read_receipts',
    variant: 'in a private channel of the owner alone',
    req: (c) => ({ path: `messages/${c.ids.secretMessage}/read_receipts` }),
    expect: e(err('Invalid message(s)'), { owner: OK, anonymous: NOT_LOGGED_IN }),
  },
  {
    route: 'DELETE /api/v1/messages/:message_id',
    variant: 'in a private channel of the owner alone',
    req: async (c) => ({ path: `messages/${await sendToChannel(c.t, c.t.owner, c.ids.secret, 'doomed', 'x')}` }),
    expect: e(err('Invalid message(s)'), { owner: OK, anonymous: NOT_LOGGED_IN }),
  },
  {
    route: 'PATCH /api/v1/messages/:message_id',
    variant: 'in a private channel of the owner alone',
    req: async (c) => ({ path: `messages/${await sendToChannel(c.t, c.t.owner, c.ids.secret, 'edited', 'x')}`, form: { topic: 'renamed' } }),
    expect: e(err('Invalid message(s)'), { owner: OK, anonymous: NOT_LOGGED_IN }),
  },
  {
    route: 'GET /user_uploads/:realm_id/:bucket/:key/:name',
    variant: 'linked only in a private channel of the owner alone',
    req: (c) => ({ path: `/user_uploads/${c.ids.secretUpload}` }),
    // Zulip's 403 inside the organization; another organization's user gets the 404 of a
    // nonexistent file (Zulip's check is not by organization, so it would answer 403 there too).
    expect: e(err('You are not authorized to view this file.', 'FORBIDDEN', 403), {
      owner: OK,
      anonymous: NOT_LOGGED_IN,
      other: err('File not found', 'NOT_FOUND', 404),
    }),
  },
  {
    route: 'GET /api/v1/streams/:stream_id/members',
    variant: 'of a private channel of the owner alone',
    req: (c) => ({ path: `streams/${c.ids.secret}/members` }),
    expect: e(BAD_CHANNEL, { owner: OK, admin: OK, anonymous: NOT_LOGGED_IN }),
  },
  {
    route: 'GET /api/v1/users/:user_id/subscriptions/:stream_id',
    variant: 'of a private channel of the owner alone',
    req: (c) => ({ path: `users/${c.t.owner.id}/subscriptions/${c.ids.secret}` }),
    expect: e(BAD_CHANNEL, { owner: OK, admin: OK, anonymous: NOT_LOGGED_IN, other: NO_USER }),
  },
  {
    route: 'POST /api/v1/mark_stream_as_read',
    variant: 'a private channel of the owner alone',
    req: (c) => ({ path: 'mark_stream_as_read', form: { stream_id: c.ids.secret } }),
    expect: e(BAD_CHANNEL, { owner: OK, anonymous: NOT_LOGGED_IN }),
  },
  {
    route: 'POST /api/v1/users/me/subscriptions',
    variant: 'joining a private channel of the owner alone',
    req: () => ({ path: 'users/me/subscriptions', form: { subscriptions: [{ name: 'secret' }] } }),
    expect: e(err('Unable to access channel (secret).'), { owner: OK, guest: GUEST, anonymous: NOT_LOGGED_IN, other: OK }),
  },
  {
    route: 'GET /api/v1/messages/:message_id/history',
    req: (c) => ({ path: `messages/${c.ids.message}/history` }),
    expect: everyone({ other: err('Invalid message(s)') }),
    missing: () => ({ path: `messages/${MISSING}/history` }),
  },
  {
    route: 'POST /api/v1/messages/flags',
    req: (c) => ({ path: 'messages/flags', form: { messages: [c.ids.message], op: 'add', flag: 'starred' } }),
    expect: everyone({ other: err('Invalid message(s)') }),
    missing: () => ({ path: 'messages/flags', form: { messages: [MISSING], op: 'add', flag: 'starred' } }),
  },
  {
    route: 'POST /api/v1/messages/flags',
    variant: 'in a private channel of the owner alone',
    req: (c) => ({ path: 'messages/flags', form: { messages: [c.ids.secretMessage], op: 'add', flag: 'starred' } }),
    expect: e(err('Invalid message(s)'), { owner: OK, anonymous: NOT_LOGGED_IN }),
  },
  {
    route: 'POST /api/v1/messages/:message_id/reactions',
    variant: 'in a public channel the guest is not subscribed to',
    req: (c) => ({ path: `messages/${c.ids.lobbyMessage}/reactions`, form: { emoji_name: 'heart' } }),
    expect: everyone({ guest: err('Invalid message(s)'), other: err('Invalid message(s)') }),
  },
  {
    route: 'GET /api/v1/users/me/:stream_id/topics',
    variant: 'of a private channel of the owner alone',
    req: (c) => ({ path: `users/me/${c.ids.secret}/topics` }),
    expect: e(BAD_CHANNEL, { owner: OK, anonymous: NOT_LOGGED_IN }),
  },
  {
    route: 'POST /api/v1/messages/flags/narrow',
    req: () => ({ path: 'messages/flags/narrow', form: { anchor: 'newest', num_before: 5, num_after: 0, narrow: [], op: 'add', flag: 'read' } }),
    expect: everyone(),
  },
  { route: 'POST /api/v1/mark_all_as_read', req: () => ({ path: 'mark_all_as_read' }), expect: everyone() },
  {
    route: 'POST /api/v1/mark_stream_as_read',
    req: (c) => ({ path: 'mark_stream_as_read', form: { stream_id: c.ids.channel } }),
    expect: everyone({ other: BAD_CHANNEL }),
    missing: () => ({ path: 'mark_stream_as_read', form: { stream_id: MISSING } }),
  },
  {
    route: 'POST /api/v1/mark_topic_as_read',
    req: (c) => ({ path: 'mark_topic_as_read', form: { stream_id: c.ids.channel, topic_name: 'shared' } }),
    expect: everyone({ other: BAD_CHANNEL }),
    missing: () => ({ path: 'mark_topic_as_read', form: { stream_id: MISSING, topic_name: 'shared' } }),
  },
  {
    route: 'POST /api/v1/user_uploads',
    req: () => ({ path: 'user_uploads', file: { field: 'file', body: Buffer.from('some text'), name: 'notes.txt' } }),
    expect: everyone(),
  },
  { route: 'GET /api/v1/attachments', req: () => ({ path: 'attachments' }), expect: everyone() },
  {
    route: 'DELETE /api/v1/attachments/:attachment_id',
    req: async (c, role) => {
      const owner = role === 'other' || role === 'anonymous' ? c.acct.member! : as(c, role)!;
      const up = await c.ok(c.t.http.post('/api/v1/user_uploads').auth(owner.email, owner.apiKey).attach('file', Buffer.from('x'), 'x.txt'), 'upload');
      const path = up.body.url.replace('/user_uploads/', '');
      const { rows } = await c.db.query(`SELECT id FROM attachments WHERE path_id = $1`, [path]);
      return { path: `attachments/${rows[0].id}` };
    },
    expect: everyone({ other: err('Invalid attachment') }),
    missing: () => ({ path: `attachments/${MISSING}` }),
  },
  {
    route: 'GET /user_uploads/:realm_id/:bucket/:key/:name',
    req: (c) => ({ path: `/user_uploads/${c.ids.upload}` }),
    expect: everyone({ other: err('File not found', 'NOT_FOUND', 404) }),
    missing: (c) => ({ path: `/user_uploads/${c.ids.upload.replace(/\/[^/]+\/([^/]+)$/, '/AAAAAAAAAAAAAAAAAAAAAAAA/$1')}` }),
  },
  {
    route: 'GET /api/v1/user_uploads/:realm_id/:bucket/:key/:name',
    req: (c) => ({ path: `user_uploads/${c.ids.upload}` }),
    expect: everyone({ other: err('File not found', 'NOT_FOUND', 404) }),
    missing: (c) => ({ path: `user_uploads/${c.ids.upload.replace(/\/[^/]+\/([^/]+)$/, '/AAAAAAAAAAAAAAAAAAAAAAAA/$1')}` }),
  },
  {
    route: 'GET /api/v1/user_uploads/:realm_id/:bucket/:key/:name',
    variant: 'linked only in a private channel of the owner alone',
    req: (c) => ({ path: `user_uploads/${c.ids.secretUpload}` }),
    expect: e(err('You are not authorized to view this file.', 'FORBIDDEN', 403), {
      owner: OK,
      anonymous: NOT_LOGGED_IN,
      other: err('File not found', 'NOT_FOUND', 404),
    }),
  },
  {
    route: 'GET /user_uploads/temporary/:token/:filename',
    // The token is the credential; on another organization's address it names nothing (Zulip
    // does not check the organization there).
    req: async (c) => ({ path: (await c.ok(c.t.get(`user_uploads/${c.ids.upload}`), 'temporary URL')).body.url as string }),
    expect: open({ other: err('Invalid token') }),
    missing: (c) => ({ path: `/user_uploads/temporary/${'AB'.repeat(40)}/${c.ids.upload.split('/').pop()}` }),
  },
  {
    route: 'GET /user_uploads/thumbnail/:realm_id/:bucket/:key/:name/:format',
    req: async (c) => ({ path: `/user_uploads/thumbnail/${await thumbnailedImage(c)}/840x560.webp` }),
    expect: everyone({ other: err('File not found', 'NOT_FOUND', 404) }),
    missing: async (c) => ({ path: `/user_uploads/thumbnail/${(await thumbnailedImage(c)).replace(/\/[^/]+\/([^/]+)$/, '/AAAAAAAAAAAAAAAAAAAAAAAA/$1')}/840x560.webp` }),
  },
  {
    route: 'POST /api/v1/messages/:message_id/reactions',
    req: (c) => ({ path: `messages/${c.ids.message}/reactions`, form: { emoji_name: 'smile' } }),
    expect: everyone({ other: err('Invalid message(s)') }),
    missing: () => ({ path: `messages/${MISSING}/reactions`, form: { emoji_name: 'smile' } }),
  },
  {
    route: 'DELETE /api/v1/messages/:message_id/reactions',
    req: async (c, role) => {
      const me = as(c, role);
      if (me && role !== 'other') await c.t.post(`messages/${c.ids.message}/reactions`, { as: me, form: { emoji_name: 'tada' } });
      return { path: `messages/${c.ids.message}/reactions`, form: { emoji_name: 'tada' } };
    },
    expect: everyone({ other: err('Invalid message(s)') }),
    missing: () => ({ path: `messages/${MISSING}/reactions`, form: { emoji_name: 'tada' } }),
  },
  {
    route: 'POST /api/v1/submessage',
    variant: 'a vote on the member’s poll',
    req: async (c) => {
      const poll = await c.message('/poll Lunch?\nyes\nno');
      return { path: 'submessage', form: { message_id: poll, msg_type: 'widget', content: '{"type": "vote", "key": "canned,0", "vote": 1}' } };
    },
    expect: everyone({ other: err('Invalid message(s)') }),
    missing: () => ({ path: 'submessage', form: { message_id: MISSING, msg_type: 'widget', content: '{"type": "vote", "key": "canned,0", "vote": 1}' } }),
  },
  {
    route: 'POST /api/v1/submessage',
    variant: 'on a plain message of the member’s, in a public channel the guest is not subscribed to',
    req: async (c) => {
      const plain = await sendToChannel(c.t, c.acct.member!, c.ids.lobby, c.unique('topic'), 'plain');
      return { path: 'submessage', form: { message_id: plain, msg_type: 'widget', content: '{}' } };
    },
    // Only its sender may attach the first submessage; the guest cannot see it.
    expect: e(err('You cannot attach a submessage to this message.'), { member: OK, guest: err('Invalid message(s)'), other: err('Invalid message(s)') }),
  },

  // ---- drafts, saved snippets, reminders, scheduled messages
  { route: 'GET /api/v1/drafts', req: () => ({ path: 'drafts' }), expect: everyone() },
  {
    route: 'POST /api/v1/drafts',
    req: (c) => ({ path: 'drafts', form: { drafts: [draft(c)] } }),
    expect: everyone({ other: BAD_CHANNEL }),
    missing: (c) => ({ path: 'drafts', form: { drafts: [{ ...draft(c), to: [MISSING] }] } }),
  },
  {
    route: 'PATCH /api/v1/drafts/:draft_id',
    req: async (c, role) => ({ path: `drafts/${await ownDraft(c, role)}`, form: { draft: draft(c) } }),
    expect: everyone({ other: err('Draft does not exist', 'BAD_REQUEST', 404) }),
    missing: (c) => ({ path: `drafts/${MISSING}`, form: { draft: draft(c) } }),
  },
  {
    route: 'DELETE /api/v1/drafts/:draft_id',
    req: async (c, role) => ({ path: `drafts/${await ownDraft(c, role)}` }),
    expect: everyone({ other: err('Draft does not exist', 'BAD_REQUEST', 404) }),
    missing: () => ({ path: `drafts/${MISSING}` }),
  },
  { route: 'GET /api/v1/saved_snippets', req: () => ({ path: 'saved_snippets' }), expect: everyone() },
  { route: 'POST /api/v1/saved_snippets', req: () => ({ path: 'saved_snippets', form: { title: 't', content: 'c' } }), expect: everyone() },
  {
    route: 'PATCH /api/v1/saved_snippets/:saved_snippet_id',
    req: async (c, role) => ({ path: `saved_snippets/${await ownSnippet(c, role)}`, form: { title: 'retitled' } }),
    expect: everyone({ other: err('Saved snippet does not exist.', 'BAD_REQUEST', 404) }),
    missing: () => ({ path: `saved_snippets/${MISSING}`, form: { title: 'retitled' } }),
  },
  {
    route: 'DELETE /api/v1/saved_snippets/:saved_snippet_id',
    req: async (c, role) => ({ path: `saved_snippets/${await ownSnippet(c, role)}` }),
    expect: everyone({ other: err('Saved snippet does not exist.', 'BAD_REQUEST', 404) }),
    missing: () => ({ path: `saved_snippets/${MISSING}` }),
  },
  { route: 'GET /api/v1/reminders', req: () => ({ path: 'reminders' }), expect: everyone() },
  {
    route: 'POST /api/v1/reminders',
    req: (c) => ({ path: 'reminders', form: { message_id: c.ids.message, scheduled_delivery_timestamp: later(c) } }),
    expect: everyone({ other: err('Invalid message(s)') }),
    missing: (c) => ({ path: 'reminders', form: { message_id: MISSING, scheduled_delivery_timestamp: later(c) } }),
  },
  {
    route: 'DELETE /api/v1/reminders/:reminder_id',
    req: async (c, role) => ({ path: `reminders/${await ownReminder(c, role)}` }),
    expect: everyone({ other: err('Reminder does not exist', 'BAD_REQUEST', 404) }),
    missing: () => ({ path: `reminders/${MISSING}` }),
  },
  { route: 'GET /api/v1/scheduled_messages', req: () => ({ path: 'scheduled_messages' }), expect: everyone() },
  {
    route: 'POST /api/v1/scheduled_messages',
    req: (c) => ({ path: 'scheduled_messages', form: scheduled(c) }),
    expect: everyone({ other: err(`Channel with ID '0' does not exist`, 'STREAM_DOES_NOT_EXIST') }),
  },
  {
    route: 'PATCH /api/v1/scheduled_messages/:scheduled_message_id',
    req: async (c, role) => ({ path: `scheduled_messages/${await ownScheduled(c, role)}`, form: { content: 'rescheduled' } }),
    expect: everyone({ other: err('Scheduled message does not exist', 'BAD_REQUEST', 404) }),
    missing: () => ({ path: `scheduled_messages/${MISSING}`, form: { content: 'rescheduled' } }),
  },
  {
    route: 'DELETE /api/v1/scheduled_messages/:scheduled_message_id',
    req: async (c, role) => ({ path: `scheduled_messages/${await ownScheduled(c, role)}` }),
    expect: everyone({ other: err('Scheduled message does not exist', 'BAD_REQUEST', 404) }),
    missing: () => ({ path: `scheduled_messages/${MISSING}` }),
  },

  // ---- invitations
  {
    route: 'POST /api/v1/invites',
    req: (c) => ({ path: 'invites', form: { invitee_emails: `${c.unique('invitee')}@example.com`, stream_ids: [c.ids.channel] } }),
    expect: members({ other: err('Invalid channel ID 0. No invites were sent.') }),
    missing: (c) => ({ path: 'invites', form: { invitee_emails: `${c.unique('invitee')}@example.com`, stream_ids: [MISSING] } }),
  },
  { route: 'GET /api/v1/invites', req: () => ({ path: 'invites' }), expect: members() },
  {
    route: 'POST /api/v1/invites',
    variant: 'into a user group',
    req: (c) => ({ path: 'invites', form: { invitee_emails: `${c.unique('invitee')}@example.com`, stream_ids: [], group_ids: [c.ids.group] } }),
    // The owner's group: only who may add members to it (can_manage_all_groups: owners) invites into it.
    expect: members({ admin: DENIED, moderator: DENIED, member: DENIED, other: err('Invalid user group') }),
    missing: (c) => ({ path: 'invites', form: { invitee_emails: `${c.unique('invitee')}@example.com`, stream_ids: [], group_ids: [MISSING] } }),
  },
  {
    route: 'POST /api/v1/invites/multiuse',
    req: (c) => ({ path: 'invites/multiuse', form: { stream_ids: [c.ids.channel] } }),
    // create_multiuse_invite_group: administrators by default.
    expect: members({ moderator: DENIED, member: DENIED, other: err('Invalid channel ID 0. No invites were sent.') }),
    missing: () => ({ path: 'invites/multiuse', form: { stream_ids: [MISSING] } }),
  },
  {
    route: 'DELETE /api/v1/invites/multiuse/:invite_id',
    req: async (c) => {
      const r = await c.ok(c.t.post('invites/multiuse', { form: {} }), 'multiuse invite');
      return { path: `invites/multiuse/${await multiuseId(c, r.body.invite_link)}` };
    },
    // The owner's invitation: only administrators act on others' invitations (a plain 400, not Zulip's role-decorator code).
    expect: members({ moderator: NOT_ADMIN_400, member: NOT_ADMIN_400, other: err('No such invitation') }),
    missing: () => ({ path: `invites/multiuse/${MISSING}` }),
  },
  {
    route: 'DELETE /api/v1/invites/:invite_id',
    req: async (c) => ({ path: `invites/${await inviteId(c)}` }),
    // The owner's invitation: only administrators act on others' invitations (a plain 400, not Zulip's role-decorator code).
    expect: members({ moderator: NOT_ADMIN_400, member: NOT_ADMIN_400, other: err('No such invitation') }),
    missing: () => ({ path: `invites/${MISSING}` }),
  },
  {
    route: 'POST /api/v1/invites/:invite_id/resend',
    req: async (c) => ({ path: `invites/${await inviteId(c)}/resend` }),
    // The owner's invitation: only administrators act on others' invitations (a plain 400, not Zulip's role-decorator code).
    expect: members({ moderator: NOT_ADMIN_400, member: NOT_ADMIN_400, other: err('No such invitation') }),
    missing: () => ({ path: `invites/${MISSING}/resend` }),
  },

  // ---- push notifications (no push relay configured here)
  {
    route: 'POST /api/v1/users/me/apns_device_token',
    req: (c) => ({ path: 'users/me/apns_device_token', form: { token: hexToken(c), appid: 'org.svc.Svc' } }),
    expect: humans(),
  },
  {
    route: 'DELETE /api/v1/users/me/apns_device_token',
    req: async (c, role) => {
      const token = hexToken(c);
      if (role !== 'anonymous') await c.t.post('users/me/apns_device_token', { as: as(c, role), form: { token, appid: 'org.svc.Svc' } });
      return { path: 'users/me/apns_device_token', form: { token } };
    },
    expect: humans(),
  },
  { route: 'POST /api/v1/register_client_device', req: () => ({ path: 'register_client_device' }), expect: everyone() },
  {
    route: 'POST /api/v1/mobile_push/register',
    req: () => ({ path: 'mobile_push/register', form: { device_id: 1 } }),
    expect: e(err('Server is not configured to use push notification service.', 'PUSH_SERVICE_NOT_CONFIGURED'), { bot: BOT, anonymous: NOT_LOGGED_IN }),
  },
  {
    route: 'POST /api/v1/mobile_push/e2ee/test_notification',
    req: () => ({ path: 'mobile_push/e2ee/test_notification' }),
    expect: e(err('No active registered push device', 'NO_ACTIVE_PUSH_DEVICE'), { bot: BOT, anonymous: NOT_LOGGED_IN }),
  },
  {
    route: 'POST /api/v1/users/me/android_gcm_reg_id',
    req: (c) => ({ path: 'users/me/android_gcm_reg_id', form: { token: fcmToken(c) } }),
    expect: humans(),
  },
  {
    route: 'DELETE /api/v1/users/me/android_gcm_reg_id',
    req: async (c, role) => {
      const token = fcmToken(c);
      if (role !== 'anonymous') await c.t.post('users/me/android_gcm_reg_id', { as: as(c, role), form: { token } });
      return { path: 'users/me/android_gcm_reg_id', form: { token } };
    },
    expect: humans(),
  },
  {
    route: 'POST /api/v1/remove_client_device',
    // Each role removes a device of its own (no bot check, as in Zulip); the second organization's owner names the member's.
    req: async (c, role) => {
      const r = await c.ok(c.t.post('register_client_device', { as: objectOwner(c, role) }), 'device');
      return { path: 'remove_client_device', form: { device_id: r.body.device_id } };
    },
    expect: everyone({ other: err('Invalid `device_id`') }),
    missing: () => ({ path: 'remove_client_device', form: { device_id: MISSING } }),
  },
  {
    route: 'POST /api/v1/mobile_push/test_notification',
    // Each role names a legacy token of its own (then: no relay here); the second organization's owner names the member's.
    req: async (c, role) => {
      const token = fcmToken(c);
      if (role !== 'bot') await c.ok(c.t.post('users/me/android_gcm_reg_id', { as: objectOwner(c, role), form: { token } }), 'FCM token');
      return { path: 'mobile_push/test_notification', form: { token } };
    },
    expect: e(err('Server is not configured to use push notification service.', 'PUSH_SERVICE_NOT_CONFIGURED'), {
      bot: BOT,
      anonymous: NOT_LOGGED_IN,
      other: err('Device not recognized', 'INVALID_PUSH_DEVICE_TOKEN'),
    }),
    missing: () => ({ path: 'mobile_push/test_notification', form: { token: 'never-registered' } }),
  },

  // ---- server
  { route: 'GET /api/v1/server_settings', req: () => ({ path: 'server_settings' }), expect: open() },
  { route: 'GET /health', req: () => ({ path: '/health' }), expect: open() },
  { route: 'GET /compatibility', req: () => ({ path: '/compatibility', headers: { 'User-Agent': 'ZulipMobile/27.192 (Android 14)' } }), expect: open() },
  // Services this server does not run: Zulip's answers where they are not configured.
  { route: 'POST /api/v1/calls/zoom/create', req: () => ({ path: 'calls/zoom/create' }), expect: e(err('Zoom credentials have not been configured')) },
  {
    route: 'POST /api/v1/calls/constructorgroups/create',
    req: () => ({ path: 'calls/constructorgroups/create' }),
    expect: e(err('Constructor Groups is not configured.')),
  },
  {
    route: 'POST /api/v1/calls/nextcloud_talk/create',
    req: () => ({ path: 'calls/nextcloud_talk/create', form: { room_name: 'matrix call' } }),
    expect: e(err('Nextcloud Talk is not configured.')),
  },
  { route: 'GET /api/v1/calls/bigbluebutton/create', req: () => ({ path: 'calls/bigbluebutton/create', query: { meeting_name: 'matrix call' } }), expect: everyone() },
  {
    route: 'GET /calls/bigbluebutton/join',
    // Zulip sends a browser without a session to the login page first; here everyone is refused alike.
    req: () => ({ path: '/calls/bigbluebutton/join', query: { bigbluebutton: 'signed' } }),
    expect: e(err('BigBlueButton is not configured.'), { anonymous: err('BigBlueButton is not configured.') }),
  },
  {
    route: 'POST /api/v1/jwt/fetch_api_key',
    req: () => ({ path: 'jwt/fetch_api_key', form: { token: 'a.b.c' } }),
    expect: e(err('JWT authentication is not enabled for this organization'), { anonymous: err('JWT authentication is not enabled for this organization') }),
  },
  // Not Zulip's: Prometheus metrics, only with `Authorization: Bearer <METRICS_TOKEN>` (set for
  // this app); no account's credentials are that token (metrics.e2e-spec: wrong token, right token).
  { route: 'GET /metrics', req: () => ({ path: '/metrics' }), expect: e(METRICS_TOKEN_REQUIRED, { anonymous: METRICS_TOKEN_REQUIRED }) },
  // The API reference is public, the same for every organization and caller.
  { route: 'GET /api/v1/openapi.json', req: () => ({ path: 'openapi.json' }), expect: open() },
  { route: 'GET /api/docs', req: () => ({ path: '/api/docs' }), expect: open() },
  { route: 'GET /api/docs/:asset', req: () => ({ path: '/api/docs/swagger-ui.css' }), expect: open() },
  // The web app's page and its hashed assets: public, the same for every organization and caller
  // (the page logs in through /accounts/login/ and then talks to /json).
  { route: 'GET /', req: () => ({ path: '/' }), expect: open() },
  { route: 'GET /assets/:file', req: () => ({ path: `/assets/${webAppScript()}` }), expect: open() },

  // ---- presence, typing
  { route: 'POST /api/v1/users/me/presence', req: () => ({ path: 'users/me/presence', form: { status: 'active' } }), expect: humans() },
  {
    route: 'GET /api/v1/users/:user_id_or_email/presence',
    req: (c) => ({ path: `users/${c.acct.member!.id}/presence` }),
    expect: everyone({ other: NO_USER }),
    missing: () => ({ path: `users/${MISSING}/presence` }),
  },
  { route: 'GET /api/v1/realm/presence', req: () => ({ path: 'realm/presence' }), expect: everyone() },
  {
    route: 'POST /api/v1/typing',
    req: (c) => ({ path: 'typing', form: { op: 'start', to: [c.ids.victim] } }),
    expect: everyone({ other: err('Invalid user ID 0') }),
    missing: () => ({ path: 'typing', form: { op: 'start', to: [MISSING] } }),
  },

  {
    route: 'POST /api/v1/typing',
    variant: 'in a channel',
    req: (c) => ({ path: 'typing', form: { type: 'stream', stream_id: c.ids.channel, topic: 'typing', op: 'start' } }),
    expect: everyone({ other: BAD_CHANNEL }),
    missing: () => ({ path: 'typing', form: { type: 'stream', stream_id: MISSING, topic: 'typing', op: 'start' } }),
  },

  {
    route: 'POST /api/v1/messages/:message_id/typing',
    // Each role types over an edit of its own message; the second organization's owner names the member's.
    req: async (c, role) => ({ path: `messages/${await sendToChannel(c.t, objectOwner(c, role), c.ids.channel, c.unique('typing'), 'x')}/typing`, form: { op: 'start' } }),
    expect: everyone({ other: err('Invalid message(s)') }),
    missing: () => ({ path: `messages/${MISSING}/typing`, form: { op: 'start' } }),
  },
  {
    route: 'POST /api/v1/messages/:message_id/typing',
    variant: "the member's message",
    req: (c) => ({ path: `messages/${c.ids.message}/typing`, form: { op: 'start' } }),
    expect: e(err("You don't have permission to edit this message"), { member: OK, anonymous: NOT_LOGGED_IN, other: err('Invalid message(s)') }),
  },
  {
    route: 'POST /api/v1/messages/:message_id/typing',
    variant: 'in a private channel of the owner alone',
    req: (c) => ({ path: `messages/${c.ids.secretMessage}/typing`, form: { op: 'start' } }),
    expect: e(err('Invalid message(s)'), { owner: OK, anonymous: NOT_LOGGED_IN }),
  },
  {
    route: 'POST /api/v1/messages/:message_id/report',
    // Both organizations have a moderation request channel (the owner's private one in the first).
    req: async (c) => ({ path: `messages/${(await moderationChannels(c), c.ids.message)}/report`, form: { report_type: 'spam' } }),
    expect: everyone({ other: err('Invalid message(s)') }),
    missing: async (c) => ({ path: `messages/${(await moderationChannels(c), MISSING)}/report`, form: { report_type: 'spam' } }),
  },
  {
    route: 'POST /api/v1/messages/:message_id/report',
    variant: 'in a private channel of the owner alone',
    req: async (c) => ({ path: `messages/${(await moderationChannels(c), c.ids.secretMessage)}/report`, form: { report_type: 'spam' } }),
    expect: e(err('Invalid message(s)'), { owner: OK, anonymous: NOT_LOGGED_IN }),
  },

  // ---- event queues
  { route: 'POST /api/v1/register', req: () => ({ path: 'register', form: { event_types: ['message'] } }), expect: everyone() },
  // The whole initial state (users, channels, groups, emoji, linkifiers, domains, fields, folders, presence ...): see `markers`.
  { route: 'POST /api/v1/register', variant: 'the whole initial state', req: () => ({ path: 'register' }), expect: everyone() },
  {
    route: 'GET /api/v1/events',
    req: async (c, role) => ({ path: 'events', query: { queue_id: await queueOf(c, role), last_event_id: -1, dont_block: true } }),
    expect: everyone({ other: err('Bad event queue ID: 0', 'BAD_EVENT_QUEUE_ID') }),
    missing: () => ({ path: 'events', query: { queue_id: 'no-such-queue', last_event_id: -1, dont_block: true } }),
  },
  {
    route: 'DELETE /api/v1/events',
    req: async (c, role) => ({ path: 'events', form: { queue_id: await queueOf(c, role) } }),
    expect: everyone({ other: err('Bad event queue ID: 0', 'BAD_EVENT_QUEUE_ID') }),
    missing: () => ({ path: 'events', form: { queue_id: 'no-such-queue' } }),
  },
];

// --- fixture helpers used by rows ---------------------------------------------------------

/** A browser's CSRF cookie and the matching X-CSRFToken header. */
function csrfPair(): Record<string, string> {
  const token = someToken('form');
  return { Cookie: `csrftoken=${token}`, 'X-CSRFToken': token };
}

/** Whose object a role's request names: its own, except `other` (and anonymous): the member's. */
const objectOwner = (c: Ctx, role: Role): Account => (role === 'other' || role === 'anonymous' ? c.acct.member! : c.acct[role]!);
const hexToken = (c: Ctx) => `aabb${(c.n += 1).toString(16).padStart(8, '0')}`;
const fcmToken = (c: Ctx) => `fcm:${(c.n += 1).toString(36)}`;
const later = (c: Ctx) => Math.floor(c.t.clock.now().getTime() / 1000) + 86_400;
const draft = (c: Ctx) => ({ type: 'stream', to: [c.ids.channel], topic: 'draft', content: 'a draft', timestamp: Math.floor(c.t.clock.now().getTime() / 1000) });
const scheduled = (c: Ctx) => ({ type: 'stream', to: c.ids.channel, topic: 'later', content: 'scheduled', scheduled_delivery_timestamp: later(c) });

async function ownDraft(c: Ctx, role: Role): Promise<number> {
  const r = await c.ok(c.t.post('drafts', { as: objectOwner(c, role), form: { drafts: [draft(c)] } }), 'draft');
  return r.body.ids[0];
}
async function ownSnippet(c: Ctx, role: Role): Promise<number> {
  const r = await c.ok(c.t.post('saved_snippets', { as: objectOwner(c, role), form: { title: 't', content: 'c' } }), 'snippet');
  return r.body.saved_snippet_id;
}
async function ownReminder(c: Ctx, role: Role): Promise<number> {
  const r = await c.ok(c.t.post('reminders', { as: objectOwner(c, role), form: { message_id: c.ids.message, scheduled_delivery_timestamp: later(c) } }), 'reminder');
  return r.body.reminder_id;
}
async function ownScheduled(c: Ctx, role: Role): Promise<number> {
  const r = await c.ok(c.t.post('scheduled_messages', { as: objectOwner(c, role), form: scheduled(c) }), 'scheduled message');
  return r.body.scheduled_message_id;
}
/** A new custom navigation view of the role's account (the member's for `other`): its fragment, as a path segment. */
async function ownNavigationView(c: Ctx, role: Role): Promise<string> {
  const fragment = c.unique('narrow/is/mine');
  await c.ok(c.t.post('navigation_views', { as: objectOwner(c, role), form: { fragment, is_pinned: true, name: c.unique('Mine ') } }), 'navigation view');
  return encodeURIComponent(fragment);
}
/** POSTs an image file as `as` (on its organization's host); the answer. */
async function postImage(c: Ctx, as: Account, path: string, fields: Record<string, string> = {}): Promise<Response> {
  let req = c.t.http.post(`/api/v1/${path}`).auth(as.email, as.apiKey);
  if (as.host) req = req.set('Host', as.host);
  for (const [k, v] of Object.entries(fields)) req = req.field(k, v);
  return c.ok(req.attach('file', PNG, 'image.png'), path);
}
let avatarFile: Promise<string> | undefined;
/** The stored avatar of an account of the first organization no other row touches (made once). */
function storedAvatar(c: Ctx): Promise<string> {
  avatarFile ??= c.fresh('member').then(async (u) => (await postImage(c, u!, 'users/me/avatar')).body.avatar_url as string);
  return avatarFile;
}
let iconFile: Promise<string> | undefined;
/** The first organization's stored icon (uploaded once; removing the icon keeps the file, as in Zulip). */
function storedIcon(c: Ctx): Promise<string> {
  iconFile ??= postImage(c, c.t.owner, 'realm/icon').then((r) => (r.body.icon_url as string).split('?')[0]);
  return iconFile;
}
/** A day logo uploaded right now by `owner` for its organization. */
async function uploadedLogo(c: Ctx, owner: Account): Promise<void> {
  await postImage(c, owner, 'realm/logo', { night: 'false' });
}
/** Clears the first organization's export rate limit window (5 a week), as if its exports were older. */
async function ageExports(c: Ctx): Promise<void> {
  await c.db.query(`UPDATE realm_exports SET date_requested = date_requested - interval '8 days'`);
}
/** A new export of the first organization's owner, once the worker wrote it: its id and download address. */
async function finishedExport(c: Ctx): Promise<{ id: number; url: string }> {
  await ageExports(c);
  const r = await c.ok(c.t.post('export/realm'), 'export');
  for (let i = 0; i < 400; i++) {
    const e = ((await c.t.get('export/realm')).body.exports as { id: number; pending: boolean; export_url: string }[]).find((x) => x.id === r.body.id);
    if (e !== undefined && !e.pending) return { id: e.id, url: e.export_url };
    await new Promise((done) => setTimeout(done, 50));
  }
  throw new Error('fixture export still pending');
}
let shared: Promise<{ id: number; url: string }> | undefined;
/** One finished export the rows only read (or fail to delete). */
const sharedExport = (c: Ctx) => (shared ??= finishedExport(c));
/** A new default channel group of the first organization; its id. */
async function defaultChannelGroup(c: Ctx): Promise<number> {
  await c.ok(c.t.post('default_stream_groups/create', { form: { group_name: c.unique('group'), description: '', stream_names: [] } }), 'default channel group');
  return (await c.t.sql(`SELECT max(id) AS id FROM default_channel_groups`))[0].id;
}
/** Message reporting on in both organizations: the first's goes to `secret` (the owner's alone), the second's to a private channel of its own. */
async function moderationChannels(c: Ctx): Promise<void> {
  await c.ok(c.t.patch('realm', { form: { moderation_request_channel_id: c.ids.secret } }), 'moderation channel');
  const form = { subscriptions: [{ name: 'matrix-moderation' }], invite_only: true };
  await c.ok(c.t.post('users/me/subscriptions', { as: c.acct.other, form }), 'private channel');
  const [{ id }] = await c.t.sql(`SELECT id FROM channels WHERE name = 'matrix-moderation'`);
  await c.ok(c.t.patch('realm', { as: c.acct.other, form: { moderation_request_channel_id: id } }), 'moderation channel');
}
async function queueOf(c: Ctx, role: Role): Promise<string> {
  const r = await c.ok(c.t.post('register', { as: objectOwner(c, role), form: { event_types: ['message'] } }), 'register');
  return r.body.queue_id;
}
/** A new invitation sent by the owner; its id. */
async function inviteId(c: Ctx): Promise<number> {
  const email = `${c.unique('invited')}@example.com`;
  await c.ok(c.t.post('invites', { form: { invitee_emails: email, stream_ids: [] } }), 'invite');
  const { rows } = await c.db.query(`SELECT id FROM invitations WHERE email = $1`, [email]);
  return rows[0].id;
}
async function multiuseId(c: Ctx, link: string): Promise<number> {
  const invites = (await c.t.get('invites')).body.invites as { id: number; is_multiuse: boolean; link_url?: string }[];
  return invites.find((i) => i.is_multiuse && i.link_url === link)!.id;
}
/** A fresh email-change confirmation key (a new user of the first organization asks to change address). */
async function emailChangeKey(c: Ctx): Promise<string> {
  const u = await c.fresh('member');
  const to = `${c.unique('changed')}@example.com`;
  await c.ok(c.t.patch('settings', { as: u, form: { email: to } }), 'email change');
  const { rows } = await c.db.query(`SELECT body FROM email_outbox WHERE to_address = $1`, [to]);
  return /\/accounts\/confirm_new_email\/([a-z2-7]{24})\//.exec(rows[0].body)![1];
}

/** The confirmation key of a fresh email invitation sent by the first organization's owner. */
async function invitationKey(c: Ctx): Promise<string> {
  const email = `${c.unique('signup')}@example.com`;
  await c.ok(c.t.post('invites', { form: { invitee_emails: email, stream_ids: [] } }), 'invite');
  const { rows } = await c.db.query(`SELECT confirmation_key FROM invitations WHERE email = $1`, [email]);
  return rows[0].confirmation_key;
}
/** The key of a fresh reusable invitation link of the first organization. */
async function multiuseKey(c: Ctx): Promise<string> {
  const r = await c.ok(c.t.post('invites/multiuse', { form: {} }), 'multiuse invite');
  return /\/join\/([a-z2-7]{24})\/$/.exec(r.body.invite_link)![1];
}

/** The token of a fresh password-reset link (a new user of the first organization asks for one). */
async function passwordResetToken(c: Ctx): Promise<string> {
  const u = await c.fresh('member');
  await c.ok(c.t.post('/accounts/password/reset/', { as: null, form: { email: u!.email } }), 'password reset request');
  const { rows } = await c.db.query(`SELECT body FROM email_outbox WHERE to_address = $1 AND kind = 'password_reset'`, [u!.email]);
  return /\/accounts\/password\/reset\/([0-9a-f]{64})\//.exec(rows[0].body)![1];
}

// --- running it ------------------------------------------------------------------------------

/** Every `METHOD path` the live router serves. */
function liveRoutes(t: TestApp): string[] {
  const app = t.app.getHttpAdapter().getInstance() as unknown as { router: { stack: RouterLayer[] } };
  const out: string[] = [];
  for (const layer of routeLayers(app.router.stack)) {
    if (!layer.route) continue;
    for (const [m, on] of Object.entries(layer.route.methods)) if (on && m !== '_all') out.push(`${m.toUpperCase()} ${layer.route.path}`);
  }
  return out;
}

/**
 * Sends a row's request as `caller`: with its API key, or (`browser`) under /json as the web app
 * does, with the caller's session cookie (null: none) and the CSRF token.
 */
async function send(c: Ctx, method: string, r: Req, caller: Account | null, browser?: { session: BrowserSession | null }): Promise<Response> {
  const url = r.path.startsWith('/') ? r.path : `/${browser ? 'json' : 'api/v1'}/${r.path}`;
  let req = (c.t.http as unknown as Record<string, (u: string) => import('supertest').Test>)[method.toLowerCase()](url);
  if (browser) {
    const csrftoken = browser.session?.csrftoken ?? someToken('matrix');
    req = req.set('Cookie', cookieHeader({ sessionid: browser.session?.sessionid, csrftoken })).set('X-CSRFToken', csrftoken);
  } else if (caller) req = req.auth(caller.email, caller.apiKey);
  if (caller?.host) req = req.set('Host', caller.host);
  for (const [name, value] of Object.entries(r.headers ?? {})) req = req.set(name, value);
  if (r.query) req = req.query(Object.fromEntries(Object.entries(r.query).map(([k, v]) => [k, encode(v)])));
  if (r.file) {
    req = req.attach(r.file.field, r.file.body, r.file.name);
    for (const [k, v] of Object.entries(r.form ?? {})) req = req.field(k, encode(v));
  } else if (r.form) {
    req = req.type('form').send(Object.fromEntries(Object.entries(r.form).map(([k, v]) => [k, encode(v)])));
  }
  // Every answer of the table is also held to the API reference.
  return c.t.checkedAgainstDocument(method.toLowerCase() as Method, req);
}

/** The outcome as the table writes it ('ok', or status + code + msg). */
function outcomeOf(res: Response, path: string): Outcome {
  const json = /json/.test(res.headers['content-type'] ?? '');
  // The JSON API answers in envelopes; pages, files, health checks and the API reference do not.
  const api = (!path.startsWith('/') || path.startsWith('/api/')) && path !== 'openapi.json';
  if (res.status >= 200 && res.status < 300 && (!json || !api || res.body.result === 'success')) return OK;
  if (json && res.body.result === 'error') return { status: res.status, code: res.body.code, msg: res.body.msg };
  return { status: res.status, msg: `non-envelope body: ${(res.text ?? '').slice(0, 80)}` };
}

let thumbnailed: Promise<string> | undefined;
/** An image of the member's, linked from a message in `channel`, once thumbnailed (made once): its path. */
function thumbnailedImage(c: Ctx): Promise<string> {
  thumbnailed ??= (async () => {
    const member = c.acct.member!;
    const up = await c.ok(c.t.http.post('/api/v1/user_uploads').auth(member.email, member.apiKey).attach('file', PNG, 'pixel.png'), 'image upload');
    await sendToChannel(c.t, member, c.ids.channel, 'images', `[pixel](${up.body.url})`);
    const path = (up.body.url as string).replace('/user_uploads/', '');
    for (let i = 0; i < 200; i++) {
      await c.t.app.get(ThumbnailRunner).idle();
      const { rows } = await c.db.query(`SELECT status FROM image_attachments WHERE path_id = $1`, [path]);
      if (rows[0]?.status === 'done') return path;
      await new Promise((done) => setTimeout(done, 25));
    }
    throw new Error('fixture image never thumbnailed');
  })();
  return thumbnailed;
}

/** Ids in messages vary with fixtures: the table writes them as 0. */
const normalize = (o: Outcome): Outcome =>
  o === OK ? o : { ...o, msg: o.msg.replace(/queue ID: .*/, 'queue ID: 0').replace(/\d{2,}|\b\d\b/g, '0').replace(/'chan\d+'/g, "'chan0'") };

let t: TestApp;
let db: pg.Client;
let c: Ctx;

beforeAll(async () => {
  // Background exports on (TestApp turns them off): the export rows expect them to finish.
  t = await TestApp.start({ METRICS_TOKEN: 'matrix-metrics-token-0123456789', EXPORT_POLL_INTERVAL_MS: '10000', THUMBNAIL_POLL_INTERVAL_MS: '10000' });
  db = new pg.Client({ connectionString: t.databaseUrl });
  await db.connect();
  c = new Ctx(t, db);
  const { admin, moderator, member, guest, bot, otherOwner } = await t.createRoleAccounts();
  c.acct = { owner: t.owner, admin, moderator, member, guest, bot, anonymous: null, other: otherOwner };
  const org1 = [t.owner, admin, moderator, member, guest, bot];
  const channel = (await createChannels(t, ['matrix'], { form: { principals: org1.map((a) => a.id) } })).matrix;
  c.ids = { channel } as Ctx['ids'];
  const up = await c.ok(t.http.post('/api/v1/user_uploads').auth(member.email, member.apiKey).attach('file', Buffer.from('shared'), 'shared.txt'), 'upload');
  const upload = up.body.url.replace('/user_uploads/', '');
  const message = await sendToChannel(t, member, channel, 'shared', `see [file](${up.body.url})`);
  const victimEmail = 'victim@example.com';
  const victim = await c.victim(victimEmail);
  const channel2 = (await createChannels(t, ['matrix2'], { form: { principals: org1.map((a) => a.id) } })).matrix2;
  await c.ok(t.post('users/me/subscriptions', { as: otherOwner, form: { subscriptions: [{ name: 'elsewhere' }] } }), 'other channel');
  const otherChannel = (await t.get('get_stream_id', { as: otherOwner, query: { stream: 'elsewhere' } })).body.stream_id as number;
  const otherGroups = (await t.get('user_groups', { as: otherOwner })).body.user_groups as { id: number; name: string }[];
  const otherBot = (await t.createBot(otherOwner, 'elsewhere')).id;
  // The second organization has a field and a folder of its own, so the first organization's
  // orderings never cover its lists (an ordering must place every one of the caller's own).
  await c.ok(t.post('realm/profile_fields', { as: otherOwner, form: { name: 'Elsewhere', field_type: 1 } }), 'other field');
  await c.ok(t.post('channel_folders/create', { as: otherOwner, form: { name: 'Elsewhere folder', description: '' } }), 'other folder');
  await c.ok(t.post('users/me/presence', { as: member, form: { status: 'active' } }), 'presence');
  const { secret, lobby } = await createChannels(t, ['secret'], { form: { invite_only: true } }).then(async (ids) => ({
    ...ids,
    ...(await createChannels(t, ['lobby'], { form: { principals: [member.id] } })),
  }));
  const secretUp = await c.ok(t.http.post('/api/v1/user_uploads').auth(t.owner.email, t.owner.apiKey).attach('file', Buffer.from('hidden'), 'hidden.txt'), 'upload');
  const secretMessage = await sendToChannel(t, t.owner, secret, 'secret', `hidden [file](${secretUp.body.url})`);
  const lobbyMessage = await sendToChannel(t, member, lobby, 'lobby', 'public');
  const group = (await c.ok(t.post('user_groups/create', { form: { name: 'matrix-group', description: '', members: [victim] } }), 'group')).body.group_id;
  const group2 = (await c.ok(t.post('user_groups/create', { form: { name: 'matrix-sub', description: '', members: [] } }), 'group')).body.group_id;
  const linkifier = (await c.ok(t.post('realm/filters', { form: { pattern: 'FIX-(?P<id>[0-9]+)', url_template: 'https://f.example.com/{id}' } }), 'linkifier')).body.id;
  const profileField = (await c.ok(t.post('realm/profile_fields', { form: { name: 'Matrix', field_type: 1 } }), 'field')).body.id;
  const folder = (await c.ok(t.post('channel_folders/create', { form: { name: 'Matrix folder', description: '' } }), 'folder')).body.channel_folder_id;
  await c.ok(t.post('realm/domains', { form: { domain: 'matrix.example.org', allow_subdomains: false } }), 'domain');
  await c.ok(t.http.post('/api/v1/realm/emoji/matrixemoji').auth(member.email, member.apiKey).attach('f1', PNG, 'e.png'), 'emoji');
  const emoji = Object.values((await t.get('realm/emoji')).body.emoji as Record<string, { name: string; source_url: string }>).find((x) => x.name === 'matrixemoji')!;
  c.ids = {
    channel,
    message,
    victim,
    victimEmail,
    channel2,
    otherChannel,
    otherGroup: otherGroups.find((g) => g.name === 'role:everyone')!.id,
    otherBot,
    secret,
    secretMessage,
    secretUpload: secretUp.body.url.replace('/user_uploads/', ''),
    lobby,
    lobbyMessage,
    group,
    group2,
    linkifier,
    profileField,
    folder,
    domain: 'matrix.example.org',
    memberBot: bot.id,
    upload,
    emojiFile: emoji.source_url,
  };
}, 180_000);
afterAll(async () => {
  await db?.end();
  await t?.close();
});

it('has one row per route of the live router, and no row for a route that is gone', () => {
  const live = liveRoutes(t);
  const rows = TABLE.map((r) => r.route);
  const problems = [
    ...live.filter((r) => !rows.includes(r)).map((r) => `no authorization row for ${r}`),
    ...rows.filter((r) => !live.includes(r)).map((r) => `row for a route the router does not serve: ${r}`),
    ...TABLE.filter((r, i) => !r.variant && TABLE.findIndex((x) => x.route === r.route && !x.variant) !== i).map((r) => `two rows for ${r.route}`),
  ];
  expect(problems).toEqual([]);
});

it("refuses another organization's credentials on this organization's address on every authenticated route, as a key that does not exist", async () => {
  // The account exists only in its own organization (its address is also the first
  // organization owner's): here its key is simply not that account's.
  const foreign = { ...c.acct.other!, host: undefined };
  const answers: Record<string, Outcome> = {};
  // GET /metrics takes a token of its own, never Zulip credentials (its row: every caller refused alike);
  // JWT login and the BigBlueButton join page need none and refuse everyone alike (their rows).
  const noCredentials = ['GET /metrics', 'POST /api/v1/jwt/fetch_api_key', 'GET /calls/bigbluebutton/join'];
  for (const row of TABLE.filter((r) => !r.variant && r.expect.anonymous !== OK && !noCredentials.includes(r.route))) {
    const [method, pattern] = row.route.split(' ');
    const path = pattern.replace(/:[a-z_]+/g, '1').replace(/\*[a-z_]+/g, 'x');
    answers[row.route] = outcomeOf(await send(c, method, { path }, foreign), path);
  }
  const invalidKey = err('Invalid API key', 'UNAUTHORIZED', 401);
  expect(answers).toEqual(Object.fromEntries(Object.keys(answers).map((route) => [route, invalidKey])));
}, 90_000);

describe.each(TABLE.map((row) => [row.variant ? `${row.route} (${row.variant})` : row.route, row] as const))('%s', (_name, row) => {
  it('answers every kind of caller as the table says (one of them through /json with its browser session)', async () => {
    const method = row.route.split(' ')[0];
    const actual = {} as Expectation;
    const viaJson = browserRoleOf(row);
    for (const role of ROLES) {
      const r = await row.req(c, role);
      const caller = r.as === undefined ? c.acct[role] : r.as;
      const browser = role === viaJson ? await browserOf(caller) : undefined;
      const res = await send(c, method, r, caller, browser);
      actual[role] = normalize(outcomeOf(res, r.path));
      // (An error may repeat what the request named; anything else of the first organization is a leak.)
      const leak = role === 'other' ? c.markers().find((m) => (res.text ?? '').includes(m) && !JSON.stringify(r).includes(m)) : undefined;
      if (leak !== undefined) actual[role] = { status: res.status, code: 'LEAK', msg: `answer shows the first organization's ${leak}` };
      // Page scripts never see the user's own API key.
      if (browser && caller && (res.text ?? '').includes(caller.apiKey)) actual[role] = { status: res.status, code: 'LEAK', msg: 'answer under /json shows the caller’s API key' };
      if (actual[role] === OK) row.check?.(c, role, res);
    }
    const expected = Object.fromEntries(ROLES.map((role) => [role, normalize(row.expect[role])])) as Expectation;
    expect(actual).toEqual(expected);
    if (row.missing) {
      // Another organization's object reads exactly like one that does not exist.
      const r = await row.missing(c, 'owner');
      const absent = normalize(outcomeOf(await send(c, method, r, c.acct.owner), r.path));
      expect(absent).toEqual(expected.other);
    }
  }, 90_000);
});

// --- the same routes under /json (the web app's browser sessions) ----------------------------

/** Never served under /json: their answer is the caller's own API key. */
const API_KEY_ROUTES = ['POST /api/v1/fetch_api_key', 'POST /api/v1/jwt/fetch_api_key', 'POST /api/v1/users/me/api_key/regenerate'];
/** The roles whose accounts log in with a password (bots have no browser sessions). */
const BROWSER_ROLES = ['owner', 'admin', 'moderator', 'member', 'guest', 'other'] as const;
const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const jsonRows = () => TABLE.filter((r) => r.route.split(' ')[1].startsWith('/api/v1/') && !API_KEY_ROUTES.includes(r.route));

/**
 * The role whose request of this row goes through /json, with its browser session instead of its
 * API key (the roles in turn, row after row), so every /api/v1 row is also checked as the web
 * app calls it at no extra request (a repeated request would not be the same: a reaction exists
 * the second time). Undefined: the row is not served under /json.
 */
function browserRoleOf(row: Row): Role | undefined {
  const at = jsonRows().indexOf(row);
  return at < 0 ? undefined : BROWSER_ROLES[at % BROWSER_ROLES.length];
}

/** The caller's browser (no caller: one without a session); undefined for an account that cannot log in (a bot): its API key, then. */
async function browserOf(caller: Account | null): Promise<{ session: BrowserSession | null } | undefined> {
  if (caller === null) return { session: null };
  const session = await sessionOf(t, caller);
  return session === null ? undefined : { session };
}

/** Routes a spectator (no session under /json) reaches, with parameters that get past their validation (test/e2e/messages/spectators.e2e-spec.ts covers them). */
const SPECTATOR_QUERIES: Record<string, Record<string, unknown>> = { 'GET /api/v1/messages': { anchor: 'newest' } };

describe('under /json, with browser sessions', () => {
  it('refuses every authenticated route without a session, with an ended one, and with another organization’s; an unsafe one first checks the CSRF token', async () => {
    const member = (await sessionOf(t, c.acct.member!))!;
    const theirs = (await sessionOf(t, c.acct.other!))!; // logged in on the second organization's host
    const ended = { sessionid: someToken('ended'), csrftoken: member.csrftoken };
    const csrfMissing = err('CSRF error: CSRF token missing.', 'CSRF_FAILED', 403);
    const answers: Record<string, Outcome> = {};
    const wanted: Record<string, Outcome> = {};
    for (const row of jsonRows().filter((r) => !r.variant)) {
      const [method, pattern] = row.route.split(' ');
      const path = pattern.replace(/^\/api\/v1\//, '').replace(/:[a-z_]+/g, '1').replace(/\*[a-z_]+/g, 'x');
      if (row.expect.anonymous === OK) {
        // Public operations work without a session, as with no credentials.
        const r = await row.req(c, 'anonymous');
        answers[`${row.route} without a session`] = normalize(outcomeOf(await send(c, method, r, null, { session: null }), r.path));
        wanted[`${row.route} without a session`] = OK;
        continue;
      }
      for (const [who, session] of [['without a session', null], ['with an ended session', ended], ['with another organization’s session', theirs]] as const) {
        // A route spectators may use reads its parameters first (as Zulip's view does): send valid ones.
        answers[`${row.route} ${who}`] = outcomeOf(await send(c, method, { path, query: SPECTATOR_QUERIES[row.route] }, null, { session }), path);
        wanted[`${row.route} ${who}`] = NOT_LOGGED_IN;
      }
      if (UNSAFE.has(method)) {
        const res = await c.t.http[method.toLowerCase() as Method](`/json/${path}`).set('Cookie', cookieHeader(member));
        answers[`${row.route} without X-CSRFToken`] = outcomeOf(res, path);
        wanted[`${row.route} without X-CSRFToken`] = csrfMissing;
      }
    }
    for (const route of API_KEY_ROUTES) {
      const path = route.split(' ')[1].replace(/^\/api\/v1\//, '');
      answers[`${route} under /json`] = outcomeOf(await send(c, 'POST', { path, form: { username: 'x@example.com', password: 'x' } }, c.acct.member, { session: member }), path);
      wanted[`${route} under /json`] = err('Not Found', 'NOT_FOUND', 404);
    }
    expect(answers).toEqual(wanted);
  }, 90_000);
});
