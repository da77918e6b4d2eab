import { DomainError } from '../shared/domain-error.js';

/** A narrow term as clients send it. */
export interface SpectatorNarrowTerm {
  operator: string;
  operand: unknown;
  negated: boolean;
}

/** Zulip's MissingAuthenticationError: a spectator asked for what needs an account. */
export const notLoggedIn = (): DomainError => new DomainError('Not logged in: API authentication or user session required', 'UNAUTHORIZED', 'unauthorized');

/** The operators a spectator's narrow may use (Zulip's is_spectator_compatible). */
const SPECTATOR_OPERATORS: ReadonlySet<string> = new Set(['channel', 'stream', 'channels', 'streams', 'topic', 'sender', 'has', 'search', 'near', 'id']);

/**
 * Whether the organization lets people without an account read its web-public channels (Zulip's
 * Realm.allow_web_public_streams_access): the server's switch, the organization's spectator
 * access, and at least one web-public channel.
 */
export function spectatorsAllowed(realm: { enableSpectatorAccess: boolean; hasWebPublicChannels: boolean }, serverAllowsWebPublic: boolean): boolean {
  return serverAllowsWebPublic && realm.enableSpectatorAccess && realm.hasWebPublicChannels;
}

/**
 * A spectator's message fetch, checked as Zulip's get_messages_backend does before anything is
 * read: the organization must allow spectators, the narrow must say `channels:web-public` (so a
 * client whose login broke gets "not logged in", not an empty list), and use only operators a
 * spectator may use. Any failure is "not logged in".
 */
export function checkSpectatorFetch(allowed: boolean, narrow: readonly SpectatorNarrowTerm[]): void {
  if (!allowed) throw notLoggedIn();
  const webPublic = narrow.some((t) => (t.operator === 'channels' || t.operator === 'streams') && t.operand === 'web-public' && !t.negated);
  if (!webPublic || !narrow.every((t) => SPECTATOR_OPERATORS.has(t.operator))) throw notLoggedIn();
}
