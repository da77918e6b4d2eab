import { INVITES_MIN_USER_AGE_DAYS } from '@app/domain/invitations';
import { BATCHED_REQUEST_BUDGET_MS, MARK_ALL_AS_READ_BATCH } from '@app/domain/messages';
import { LIMITS } from '@app/domain/realm';
import { isValidEmail } from '@app/domain/users';
import { availableParallelism } from 'node:os';

/** Version facts the API reports (svc_version, svc_feature_level, svc_merge_base). */
export const SVC_VERSION = '1.0.0-dev';
export const SVC_FEATURE_LEVEL = 472;

type Env = Record<string, string | undefined>;

function bool(env: Env, name: string, fallback: boolean): boolean {
  const v = env[name];
  if (v === undefined || v === '') return fallback;
  if (/^(1|true|yes|on)$/i.test(v)) return true;
  if (/^(0|false|no|off)$/i.test(v)) return false;
  throw new Error(`${name} must be true or false, got "${v}"`);
}

/** Server processes at most (WORKERS): beyond this many a typo is likelier than a machine that size. */
export const MAX_WORKERS = 64;

/** WORKERS: a positive integer, or `auto` (one process per core the machine offers). */
function workerCount(env: Env): number {
  const v = env.WORKERS?.trim();
  if (v === undefined || v === '') return 1;
  if (v.toLowerCase() === 'auto') return Math.min(availableParallelism(), MAX_WORKERS);
  const n = /^\d+$/.test(v) ? Number(v) : NaN;
  if (!(n >= 1 && n <= MAX_WORKERS)) throw new Error(`WORKERS must be "auto" or an integer from 1 to ${MAX_WORKERS}, got "${env.WORKERS}"`);
  return n;
}

function int(env: Env, name: string, fallback: number): number {
  const v = env[name];
  if (v === undefined || v === '') return fallback;
  const n = Number(v);
  if (!Number.isInteger(n)) throw new Error(`${name} must be an integer, got "${v}"`);
  return n;
}

function nonNegativeInt(env: Env, name: string, fallback: number): number {
  const n = int(env, name, fallback);
  if (n < 0) throw new Error(`${name} must not be negative, got "${env[name]}"`);
  return n;
}

function isRedisUrl(v: string): boolean {
  try {
    const u = new URL(v);
    return (u.protocol === 'redis:' || u.protocol === 'rediss:') && u.hostname !== '';
  } catch {
    return false;
  }
}

/** The password hasher's settings, checked; per process: with several (WORKERS), the machine's cores are shared among them. */
function passwordHashSettings(env: Env, workers: number) {
  const s = {
    passwordHashMemoryKib: int(env, 'PASSWORD_HASH_MEMORY_KIB', 65536),
    passwordHashConcurrency: int(env, 'PASSWORD_HASH_CONCURRENCY', Math.max(1, Math.round(availableParallelism() / workers))),
    passwordHashQueue: int(env, 'PASSWORD_HASH_QUEUE', 32),
  };
  if (s.passwordHashMemoryKib < 8) throw new Error(`PASSWORD_HASH_MEMORY_KIB must be at least 8, got "${env.PASSWORD_HASH_MEMORY_KIB}"`);
  if (s.passwordHashConcurrency < 1) throw new Error(`PASSWORD_HASH_CONCURRENCY must be positive, got "${env.PASSWORD_HASH_CONCURRENCY}"`);
  if (s.passwordHashQueue < 0) throw new Error(`PASSWORD_HASH_QUEUE must not be negative, got "${env.PASSWORD_HASH_QUEUE}"`);
  return s;
}

/** REDIS_URL (shared rate limits) and REDIS_PREFIX, checked. */
function redisSettings(env: Env): { redisUrl: string | undefined; redisPrefix: string } {
  const redisUrl = env.REDIS_URL || undefined;
  if (redisUrl !== undefined && !isRedisUrl(redisUrl)) throw new Error(`REDIS_URL must be a redis:// or rediss:// URL, got "${redisUrl}"`);
  return { redisUrl, redisPrefix: env.REDIS_PREFIX ?? 'svc:' };
}

/** METRICS_TOKEN: at least 16 characters without spaces (it travels in an `Authorization: Bearer` header). */
function metricsToken(env: Env): string | undefined {
  const token = env.METRICS_TOKEN || undefined;
  if (token !== undefined && !/^\S{16,}$/.test(token)) throw new Error('METRICS_TOKEN must be at least 16 characters, without spaces');
  return token;
}

/**
 * SESSION_LIFETIME_SECONDS (Zulip's SESSION_COOKIE_AGE, two weeks) and SESSION_IDLE_TIMEOUT_SECONDS
 * (a week), checked: both at least a minute, since a session's last request is written at most
 * once a minute.
 */
function sessionSettings(env: Env) {
  const s = {
    sessionLifetimeSeconds: int(env, 'SESSION_LIFETIME_SECONDS', 1_209_600),
    sessionIdleTimeoutSeconds: int(env, 'SESSION_IDLE_TIMEOUT_SECONDS', 604_800),
  };
  if (s.sessionLifetimeSeconds < 60) throw new Error(`SESSION_LIFETIME_SECONDS must be at least 60, got "${env.SESSION_LIFETIME_SECONDS}"`);
  if (s.sessionIdleTimeoutSeconds < 60) throw new Error(`SESSION_IDLE_TIMEOUT_SECONDS must be at least 60, got "${env.SESSION_IDLE_TIMEOUT_SECONDS}"`);
  return s;
}

/** SMTP_URL, EMAIL_FROM and the delivery worker's settings, checked. */
function emailSettings(env: Env, botDomain: string) {
  const smtpUrl = env.SMTP_URL || undefined;
  if (smtpUrl !== undefined) {
    let smtp: URL;
    try {
      smtp = new URL(smtpUrl);
    } catch {
      throw new Error('SMTP_URL is not a URL');
    }
    if (smtp.protocol !== 'smtp:' && smtp.protocol !== 'smtps:') throw new Error(`SMTP_URL must start with smtp:// or smtps://, got "${smtp.protocol}"`);
  }
  const emailFrom = env.EMAIL_FROM || `noreply@${botDomain}`;
  // A bare address or `Name <address>`.
  if (!isValidEmail(emailFrom.replace(/^.*<([^>]*)>\s*$/, '$1'))) throw new Error(`EMAIL_FROM is not an email address: "${emailFrom}"`);
  const s = {
    smtpUrl,
    emailFrom,
    emailPollIntervalMs: int(env, 'EMAIL_POLL_INTERVAL_MS', 5000),
    emailMaxAttempts: int(env, 'EMAIL_MAX_ATTEMPTS', 5),
    emailRetryBaseMs: int(env, 'EMAIL_RETRY_BASE_MS', 60_000),
    emailSendTimeoutMs: int(env, 'EMAIL_SEND_TIMEOUT_MS', 30_000),
  };
  if (s.emailPollIntervalMs < 0) throw new Error(`EMAIL_POLL_INTERVAL_MS must not be negative, got "${env.EMAIL_POLL_INTERVAL_MS}"`);
  if (s.emailMaxAttempts < 1) throw new Error(`EMAIL_MAX_ATTEMPTS must be at least 1, got "${env.EMAIL_MAX_ATTEMPTS}"`);
  if (s.emailRetryBaseMs < 0) throw new Error(`EMAIL_RETRY_BASE_MS must not be negative, got "${env.EMAIL_RETRY_BASE_MS}"`);
  if (s.emailSendTimeoutMs <= 0) throw new Error(`EMAIL_SEND_TIMEOUT_MS must be positive, got "${env.EMAIL_SEND_TIMEOUT_MS}"`);
  return s;
}

/**
 * Every setting of the server, read once from the environment (docs/configuration.md lists them).
 * Tests build one with `ServerConfig.fromEnv({...})` and override what they need.
 */
export class ServerConfig {
  readonly host: string;
  readonly port: number;
  /** Server processes sharing the port (node:cluster); 1: this process serves alone, as without WORKERS. */
  readonly workers: number;
  /** PostgreSQL connections of each server process's pool (the TypeORM data source reads DB_POOL_SIZE too). */
  readonly dbPoolSize: number;
  /** Set by start-up: the given DATABASE_URL, or the embedded PostgreSQL's URL. */
  databaseUrl: string | undefined;
  readonly dataDir: string;
  readonly embeddedPgPort: number;
  readonly externalUrl: string;
  readonly realmName: string;
  readonly ownerEmail: string;
  readonly ownerPassword: string | undefined;
  readonly pushBouncerUrl: string | undefined;
  /** This server's registration with the push relay (Zulip's ZULIP_ORG_ID / ZULIP_ORG_KEY): HTTP Basic credentials. */
  readonly pushBouncerServerUuid: string | undefined;
  readonly pushBouncerApiKey: string | undefined;
  /** How long one request to the push relay may take before it counts as a network error. */
  readonly pushBouncerTimeoutMs: number;
  /** How often registrations the relay could not take yet are retried (0: only on the next start). */
  readonly pushRegistrationRetryIntervalMs: number;
  readonly webPublicStreamsEnabled: boolean;
  readonly invitationLinkValidityMinutes: number;
  /** Invitation emails an organization may send per rolling day (Zulip's INVITES_DEFAULT_REALM_DAILY_MAX). */
  readonly invitesDailyMax: number;
  /** In organizations anyone may join, accounts younger than this may not invite (non-admins). */
  readonly invitesMinUserAgeDays: number;
  readonly emailGatewayDomain: string;
  readonly logLevel: string;
  readonly rateLimiting: boolean;
  /** Where the rate-limit counts live, shared by every server process using it (unset: in each process's memory). */
  readonly redisUrl: string | undefined;
  /** Prepended to every Redis key, so several deployments (or test runs) can share one Redis. */
  readonly redisPrefix: string;
  readonly shutdownTimeoutMs: number;
  readonly fakeEmailDomain: string;
  readonly uploadsDir: string;
  /** Where the files of a multipart body stay while their request lasts (removed before it is answered). */
  readonly uploadTempDir: string;
  /** The largest file POST /user_uploads takes (Zulip's MAX_FILE_UPLOAD_SIZE; register's max_file_upload_size_mib). */
  readonly maxFileUploadSizeMib: number;
  readonly countStatements: boolean;
  /**
   * A request inside a unit of work's transaction that asks the pool for a second connection
   * fails (true: tests) instead of being logged once per call site (false: production).
   */
  readonly strictPoolChecks: boolean;
  readonly eventHeartbeatSeconds: number;
  /** Event queues one user may hold in this process; registering one more drops the least recently used. */
  readonly maxEventQueuesPerUser: number;
  /** How often the delivery worker looks for due reminders and scheduled messages; 0 turns it off. */
  readonly reminderPollIntervalMs: number;
  /** How often the export worker looks for requested organization exports (and ones whose writer died); 0 turns it off. */
  readonly exportPollIntervalMs: number;
  /**
   * How often the thumbnail worker looks for uploaded images still to thumbnail (an upload starts
   * its own at once; this finds those left by restarts and other processes). 0 turns background
   * thumbnailing off (the thumbnail route still makes a missing thumbnail when asked).
   */
  readonly thumbnailPollIntervalMs: number;
  /**
   * Also answer the `zulip_*` names Zulip's own clients read (`zulip_version`,
   * `zulip_feature_level`, …) next to the `svc_*` ones; false: only the neutral names.
   */
  readonly zulipClientCompat: boolean;
  /** Characters of keys and values one bot may keep in its storage (Zulip's USER_STATE_SIZE_LIMIT). */
  readonly userStateSizeLimit: number;
  /**
   * The reverse proxies whose X-Forwarded-For is believed (Express `trust proxy` values:
   * addresses, CIDR ranges, `loopback`, `linklocal`, `uniquelocal`); empty: the socket's peer is the client.
   */
  readonly trustedProxies: string[];
  /** POST /mark_all_as_read marks unread messages in batches of this many, each its own transaction. */
  readonly markAllAsReadBatchSize: number;
  /** Once POST /mark_all_as_read has run this long it stops after the batch in hand and answers `complete: false`. */
  readonly markAllAsReadTimeLimitMs: number;
  /** Where emails are delivered (`smtp://user:pass@host:port`, `smtps://…`); unset: they stay in the outbox. */
  readonly smtpUrl: string | undefined;
  /** The From address of every email (default `noreply@<bot domain>`, Zulip's NOREPLY_EMAIL_ADDRESS). */
  readonly emailFrom: string;
  /** How often the email delivery worker looks for due outbox rows; 0 turns it off. */
  readonly emailPollIntervalMs: number;
  /** Tries an email gets (the first included) before a temporary failure marks it failed. */
  readonly emailMaxAttempts: number;
  /** Delay before the first retry of a temporary failure; each further retry waits twice as long (at most an hour). */
  readonly emailRetryBaseMs: number;
  /** Limit of each SMTP step (connecting, greeting, socket inactivity) of one delivery. */
  readonly emailSendTimeoutMs: number;
  /** argon2id memory cost of password hashes. */
  readonly passwordHashMemoryKib: number;
  /** Password hashes computed at once by this process (default: its share of the cores); further ones wait in a queue. */
  readonly passwordHashConcurrency: number;
  /** Password hashes that may wait for a free slot; beyond that the request is answered 429. */
  readonly passwordHashQueue: number;
  /** The Bearer token of GET /metrics; unset: /metrics answers 404. */
  readonly metricsToken: string | undefined;
  /** How long a browser session lasts after its login (and the `sessionid` cookie's Max-Age). */
  readonly sessionLifetimeSeconds: number;
  /** A browser session without a request for this long has ended. */
  readonly sessionIdleTimeoutSeconds: number;

  constructor(env: Env) {
    this.host = env.HOST || '127.0.0.1';
    this.port = int(env, 'PORT', 9991);
    this.workers = workerCount(env);
    this.dbPoolSize = int(env, 'DB_POOL_SIZE', 10);
    if (this.dbPoolSize < 1) throw new Error(`DB_POOL_SIZE must be at least 1, got "${env.DB_POOL_SIZE}"`);
    this.databaseUrl = env.DATABASE_URL || undefined;
    this.dataDir = env.DATA_DIR || '.data';
    this.embeddedPgPort = int(env, 'EMBEDDED_PG_PORT', 54329);
    const external = env.EXTERNAL_URL || `http://${this.host}:${this.port}`;
    let url: URL;
    try {
      url = new URL(external);
    } catch {
      throw new Error(`EXTERNAL_URL is not a URL: "${external}"`);
    }
    this.externalUrl = external.replace(/\/+$/, '');
    this.realmName = env.REALM_NAME || 'Demo Organization';
    this.ownerEmail = env.OWNER_EMAIL || 'owner@example.com';
    this.ownerPassword = env.OWNER_PASSWORD || undefined;
    this.pushBouncerUrl = env.PUSH_BOUNCER_URL || undefined;
    this.pushBouncerServerUuid = env.PUSH_BOUNCER_SERVER_UUID || undefined;
    this.pushBouncerApiKey = env.PUSH_BOUNCER_API_KEY || undefined;
    this.pushBouncerTimeoutMs = int(env, 'PUSH_BOUNCER_TIMEOUT_MS', 5000);
    if (this.pushBouncerTimeoutMs <= 0) throw new Error('PUSH_BOUNCER_TIMEOUT_MS must be positive');
    this.pushRegistrationRetryIntervalMs = int(env, 'PUSH_REGISTRATION_RETRY_INTERVAL_MS', 30_000);
    if (this.pushBouncerUrl !== undefined) {
      try {
        new URL(this.pushBouncerUrl);
      } catch {
        throw new Error(`PUSH_BOUNCER_URL is not a URL: "${this.pushBouncerUrl}"`);
      }
    }
    this.webPublicStreamsEnabled = bool(env, 'WEB_PUBLIC_STREAMS_ENABLED', false);
    this.invitationLinkValidityMinutes = int(env, 'INVITATION_LINK_VALIDITY_MINUTES', 14400);
    this.invitesDailyMax = int(env, 'INVITES_DEFAULT_REALM_DAILY_MAX', 100);
    this.invitesMinUserAgeDays = int(env, 'INVITES_MIN_USER_AGE_DAYS', INVITES_MIN_USER_AGE_DAYS);
    this.emailGatewayDomain = env.EMAIL_GATEWAY_DOMAIN || url.hostname;
    this.logLevel = env.LOG_LEVEL || 'info';
    this.rateLimiting = bool(env, 'RATE_LIMITING', true);
    ({ redisUrl: this.redisUrl, redisPrefix: this.redisPrefix } = redisSettings(env));
    this.shutdownTimeoutMs = int(env, 'SHUTDOWN_TIMEOUT_MS', 10_000);
    this.fakeEmailDomain = env.FAKE_EMAIL_DOMAIN || 'localhost';
    this.uploadsDir = env.UPLOADS_DIR || `${this.dataDir}/uploads`;
    this.uploadTempDir = env.UPLOAD_TEMP_DIR || `${this.uploadsDir}/tmp`;
    this.maxFileUploadSizeMib = int(env, 'MAX_FILE_UPLOAD_SIZE_MIB', LIMITS.maxFileUploadSizeMib);
    if (this.maxFileUploadSizeMib < 1) throw new Error(`MAX_FILE_UPLOAD_SIZE_MIB must be positive, got "${env.MAX_FILE_UPLOAD_SIZE_MIB}"`);
    this.countStatements = bool(env, 'COUNT_SQL_STATEMENTS', false);
    this.strictPoolChecks = bool(env, 'STRICT_POOL_CHECKS', env.NODE_ENV === 'test');
    this.eventHeartbeatSeconds = int(env, 'EVENT_HEARTBEAT_SECONDS', 45);
    this.maxEventQueuesPerUser = int(env, 'MAX_EVENT_QUEUES_PER_USER', 20);
    if (this.maxEventQueuesPerUser < 1) throw new Error(`MAX_EVENT_QUEUES_PER_USER must be at least 1, got "${env.MAX_EVENT_QUEUES_PER_USER}"`);
    [this.reminderPollIntervalMs, this.exportPollIntervalMs] = [int(env, 'REMINDER_POLL_INTERVAL_MS', 5000), nonNegativeInt(env, 'EXPORT_POLL_INTERVAL_MS', 10_000)];
    this.thumbnailPollIntervalMs = int(env, 'THUMBNAIL_POLL_INTERVAL_MS', 10_000);
    if (this.thumbnailPollIntervalMs < 0) throw new Error(`THUMBNAIL_POLL_INTERVAL_MS must not be negative, got "${env.THUMBNAIL_POLL_INTERVAL_MS}"`);
    this.zulipClientCompat = bool(env, 'ZULIP_CLIENT_COMPAT', true);
    this.userStateSizeLimit = int(env, 'USER_STATE_SIZE_LIMIT', 10_000_000);
    if (this.userStateSizeLimit < 0) throw new Error(`USER_STATE_SIZE_LIMIT must not be negative, got "${env.USER_STATE_SIZE_LIMIT}"`);
    this.trustedProxies = (env.TRUSTED_PROXIES ?? '').split(',').map((p) => p.trim()).filter((p) => p !== '');
    this.markAllAsReadBatchSize = int(env, 'MARK_ALL_AS_READ_BATCH_SIZE', MARK_ALL_AS_READ_BATCH);
    if (this.markAllAsReadBatchSize < 1) throw new Error(`MARK_ALL_AS_READ_BATCH_SIZE must be at least 1, got "${env.MARK_ALL_AS_READ_BATCH_SIZE}"`);
    this.markAllAsReadTimeLimitMs = int(env, 'MARK_ALL_AS_READ_TIME_LIMIT_MS', BATCHED_REQUEST_BUDGET_MS);
    if (this.markAllAsReadTimeLimitMs < 0) throw new Error(`MARK_ALL_AS_READ_TIME_LIMIT_MS must not be negative, got "${env.MARK_ALL_AS_READ_TIME_LIMIT_MS}"`);
    ({
      passwordHashMemoryKib: this.passwordHashMemoryKib,
      passwordHashConcurrency: this.passwordHashConcurrency,
      passwordHashQueue: this.passwordHashQueue,
    } = passwordHashSettings(env, this.workers));
    ({
      smtpUrl: this.smtpUrl,
      emailFrom: this.emailFrom,
      emailPollIntervalMs: this.emailPollIntervalMs,
      emailMaxAttempts: this.emailMaxAttempts,
      emailRetryBaseMs: this.emailRetryBaseMs,
      emailSendTimeoutMs: this.emailSendTimeoutMs,
    } = emailSettings(env, this.botDomain));
    this.metricsToken = metricsToken(env);
    ({ sessionLifetimeSeconds: this.sessionLifetimeSeconds, sessionIdleTimeoutSeconds: this.sessionIdleTimeoutSeconds } = sessionSettings(env));
    if (this.reminderPollIntervalMs < 0) throw new Error(`REMINDER_POLL_INTERVAL_MS must not be negative, got "${env.REMINDER_POLL_INTERVAL_MS}"`);
  }

  static fromEnv(env: Env = process.env): ServerConfig {
    return new ServerConfig(env);
  }

  /**
   * The domain of bot emails (Zulip's realm_bot_domain): the host of EXTERNAL_URL when
   * `bot@<host>` is a valid address, else FAKE_EMAIL_DOMAIN (default `localhost`), e.g. when
   * the server is reached by IP address.
   */
  get botDomain(): string {
    return this.botDomainFor('');
  }

  botDomainFor(stringId: string): string {
    const host = new URL(this.realmUrl(stringId)).hostname;
    return isValidEmail(`bot@${host}`) ? host : this.fakeEmailDomain;
  }

  /** An organization's URL: EXTERNAL_URL for the root one, its subdomain for the others. */
  realmUrl(stringId: string): string {
    if (stringId === '') return this.externalUrl;
    const url = new URL(this.externalUrl);
    url.host = `${stringId}.${url.host}`;
    return url.toString().replace(/\/+$/, '');
  }

  /** Emails are delivered over SMTP only when SMTP_URL is set; otherwise they stay in the outbox. */
  get emailConfigured(): boolean {
    return this.smtpUrl !== undefined;
  }

  /** Cookies carry `Secure` when the server is reached over https (EXTERNAL_URL). */
  get secureCookies(): boolean {
    return this.externalUrl.toLowerCase().startsWith('https:');
  }

  get pushConfigured(): boolean {
    return this.pushBouncerUrl !== undefined;
  }
}
