/**
 * Narrows, as Zulip's web app has them: a list of terms `{operator, operand, negated}`, written
 * in the search box (`channel:general topic:"hello world" -sender:pat@example.com is:starred word`)
 * and in the URL hash (`#narrow/channel/12-general/topic/hello.20world`).
 */

export interface Term {
  operator: string;
  operand: string;
  negated?: boolean;
}

export type Narrow = Term[];

/** Operator spellings the search box accepts, and the one each means. */
const ALIASES: Record<string, string> = {
  stream: 'channel',
  streams: 'channels',
  subject: 'topic',
  'pm-with': 'dm',
  from: 'sender',
  'group-pm-with': 'dm-including',
};

const OPERATORS = new Set(['channel', 'channels', 'topic', 'dm', 'dm-including', 'sender', 'is', 'has', 'search', 'near', 'id', 'with']);

export function canonicalOperator(op: string): string {
  const lower = op.toLowerCase();
  return ALIASES[lower] ?? lower;
}

/** Operand `is:private` is `is:dm`. */
function canonicalOperand(operator: string, operand: string): string {
  if (operator === 'is' && operand.toLowerCase() === 'private') return 'dm';
  if (operator === 'is' || operator === 'has') return operand.toLowerCase();
  return operand;
}

/** Zulip's operand encoding in search text: `%` → %25, `+` → %2B, `"` → %22, space → `+`. */
export function encodeOperand(operand: string): string {
  return operand.replaceAll('%', '%25').replaceAll('+', '%2B').replaceAll('"', '%22').replaceAll(' ', '+');
}

export function decodeOperand(encoded: string): string {
  const spaced = encoded.replaceAll('+', ' ');
  try {
    return decodeURIComponent(spaced);
  } catch {
    return spaced;
  }
}

/** Tokens of search text: `-?op:operand`, `-?op:"quoted operand"`, `"a phrase"`, words. */
const TOKEN = /(-?[^\s:"]+:)?("[^"]*"?|[^\s"]+)|"[^"]*"?/g;

/** Parses search-box text into terms: known operators become terms, everything else one `search` term. */
export function parseSearch(text: string): Narrow {
  const terms: Narrow = [];
  const words: string[] = [];
  for (const match of text.matchAll(TOKEN)) {
    const token = match[0];
    const prefix = match[1];
    if (prefix === undefined) {
      words.push(token);
      continue;
    }
    let op = prefix.slice(0, -1);
    let negated = false;
    if (op.startsWith('-')) {
      negated = true;
      op = op.slice(1);
    }
    const operator = canonicalOperator(op);
    const raw = match[2] ?? '';
    const quoted = raw.startsWith('"');
    const operand = quoted ? raw.replace(/^"/, '').replace(/"$/, '') : decodeOperand(raw);
    if (!OPERATORS.has(operator) || operator === 'search') {
      words.push(operator === 'search' ? raw : token);
      continue;
    }
    if (operand === '' && !quoted) {
      words.push(token);
      continue;
    }
    terms.push(negated ? { operator, operand: canonicalOperand(operator, operand), negated: true } : { operator, operand: canonicalOperand(operator, operand) });
  }
  const search = words.join(' ').trim();
  if (search !== '') terms.push({ operator: 'search', operand: search });
  return terms;
}

/** Terms back to search text (parseSearch(unparse(t)) gives t back). */
export function unparse(terms: Narrow): string {
  return terms
    .map((t) => {
      if (t.operator === 'search') return t.operand;
      return `${t.negated ? '-' : ''}${t.operator}:${encodeOperand(t.operand)}`;
    })
    .join(' ');
}

/** Terms as search text with names in place of ids (`channel:general dm:pat@example.com`). */
export function narrowToSearchText(terms: Narrow, lookup: NarrowLookup): string {
  return unparse(
    terms.map((t) => {
      if (t.operator === 'channel' && /^\d+$/.test(t.operand)) return { ...t, operand: lookup.channelName(Number(t.operand)) ?? t.operand };
      if ((t.operator === 'dm' || t.operator === 'sender' || t.operator === 'dm-including') && /^\d+(,\d+)*$/.test(t.operand)) {
        const emails = t.operand.split(',').map((id) => lookup.userEmail?.(Number(id)) ?? id);
        return { ...t, operand: emails.join(',') };
      }
      return t;
    }),
  );
}

// ── The URL hash ────────────────────────────────────────────────────────────────────────────

const HASH_REPLACEMENTS: Record<string, string> = { '%': '.', '(': '.28', ')': '.29', '.': '.2E' };

/** Zulip's encodeHashComponent: URI-encoding with `.` in place of `%`. */
export function encodeHashComponent(s: string): string {
  return encodeURIComponent(s).replace(/[%().]/g, (m) => HASH_REPLACEMENTS[m]);
}

export function decodeHashComponent(s: string): string {
  try {
    return decodeURIComponent(s.replace(/\./g, '%'));
  } catch {
    return s;
  }
}

/** Names for hashes: channels by id, users by id. */
export interface NarrowLookup {
  channelName(id: number): string | undefined;
  channelId(name: string): number | undefined;
  userName(id: number): string | undefined;
  userIdByEmail(email: string): number | undefined;
  /** A user found by email, or by full name when exactly one has it (case-insensitive). */
  userIdByName?(name: string): number | undefined;
  userEmail?(id: number): string | undefined;
}

const slug = (name: string) => name.trim().replace(/\s+/g, '-');

/** The hash of a narrow (`#feed` for all messages). Channel and user operands are ids where known. */
export function narrowToHash(terms: Narrow, lookup?: NarrowLookup): string {
  if (terms.length === 0) return '#feed';
  const parts = ['#narrow'];
  for (const t of terms) {
    let encoded = encodeHashComponent(t.operand);
    if (t.operator === 'channel' && /^\d+$/.test(t.operand)) {
      const name = lookup?.channelName(Number(t.operand));
      if (name !== undefined) encoded = `${t.operand}-${encodeHashComponent(slug(name))}`;
    } else if ((t.operator === 'dm' || t.operator === 'sender' || t.operator === 'dm-including') && /^\d+(,\d+)*$/.test(t.operand)) {
      const ids = t.operand.split(',');
      const name = ids.length === 1 ? lookup?.userName(Number(ids[0])) : 'group';
      encoded = name === undefined ? t.operand : `${t.operand}-${encodeHashComponent(slug(name))}`;
    }
    parts.push(`${t.negated ? '-' : ''}${t.operator}`, encoded);
  }
  return parts.join('/');
}

/** Parses a hash (`#narrow/...`, `#feed`, `#all_messages`, empty) into terms; null when not a narrow. */
export function hashToNarrow(hash: string): Narrow | null {
  const h = hash.replace(/^#/, '');
  if (h === '' || h === 'feed' || h === 'all_messages' || h === 'home') return [];
  const parts = h.split('/');
  if (parts[0] !== 'narrow') return null;
  const terms: Narrow = [];
  for (let i = 1; i + 1 < parts.length; i += 2) {
    let op = decodeHashComponent(parts[i]);
    let negated = false;
    if (op.startsWith('-')) {
      negated = true;
      op = op.slice(1);
    }
    const operator = canonicalOperator(op);
    let operand = decodeHashComponent(parts[i + 1]);
    if (operator === 'channel') {
      const id = /^(\d+)(-|$)/.exec(operand);
      if (id) operand = id[1];
    } else if (operator === 'dm' || operator === 'sender' || operator === 'dm-including') {
      const ids = /^(\d+(?:,\d+)*)(-|$)/.exec(operand);
      if (ids) operand = ids[1];
    }
    const term: Term = { operator, operand: canonicalOperand(operator, operand) };
    if (negated) term.negated = true;
    terms.push(term);
  }
  return terms;
}

/**
 * Names in operands turned into ids where known (channel name → id, user emails or names → ids,
 * a dm's ids sorted): the form hashes, the API and the app's comparisons use.
 */
export function resolveNarrow(terms: Narrow, lookup: NarrowLookup): Narrow {
  return terms.map((t) => {
    if (t.operator === 'channel' && !/^\d+$/.test(t.operand)) {
      const id = lookup.channelId(t.operand);
      return id === undefined ? t : { ...t, operand: String(id) };
    }
    if (t.operator === 'dm' || t.operator === 'sender' || t.operator === 'dm-including') {
      const ids = t.operand.split(',').map((part) => {
        const p = part.trim();
        if (/^\d+$/.test(p)) return Number(p);
        return lookup.userIdByEmail(p) ?? lookup.userIdByName?.(p);
      });
      if (ids.some((id) => id === undefined)) return t;
      const sorted = [...new Set(ids as number[])].sort((a, b) => a - b);
      return { ...t, operand: sorted.join(',') };
    }
    return t;
  });
}

/** The narrow as GET /messages takes it: ids as numbers, dm ids as a list. */
export function narrowToApi(terms: Narrow): { operator: string; operand: string | number | number[]; negated?: boolean }[] {
  return terms.map((t) => {
    let operand: string | number | number[] = t.operand;
    if ((t.operator === 'channel' || t.operator === 'sender') && /^\d+$/.test(t.operand)) operand = Number(t.operand);
    if (t.operator === 'dm' && /^\d+(,\d+)*$/.test(t.operand)) operand = t.operand.split(',').map(Number);
    return t.negated ? { operator: t.operator, operand, negated: true } : { operator: t.operator, operand };
  });
}

/** A stable key of a narrow (for comparisons). */
export function narrowKey(terms: Narrow): string {
  return JSON.stringify(terms.map((t) => [t.negated ? `-${t.operator}` : t.operator, t.operand]));
}

export const termOf = (terms: Narrow, operator: string): Term | undefined => terms.find((t) => t.operator === operator && !t.negated);

/** The channel id of a narrow to one channel (or its topic), if that. */
export function narrowChannelId(terms: Narrow): number | undefined {
  const t = termOf(terms, 'channel');
  return t && /^\d+$/.test(t.operand) ? Number(t.operand) : undefined;
}

export function narrowTopic(terms: Narrow): string | undefined {
  return termOf(terms, 'topic')?.operand;
}

/** The other users of a narrow to one DM conversation, if that. */
export function narrowDmIds(terms: Narrow): number[] | undefined {
  const t = termOf(terms, 'dm');
  return t && /^\d+(,\d+)*$/.test(t.operand) ? t.operand.split(',').map(Number) : undefined;
}

export const isSearchNarrow = (terms: Narrow): boolean => terms.some((t) => t.operator === 'search');

/** A title for the narrow, e.g. "#general › greetings", "Starred messages". */
export function describeNarrow(terms: Narrow, lookup: NarrowLookup): string {
  if (terms.length === 0) return 'All messages';
  if (terms.length === 1 && !terms[0].negated && terms[0].operator === 'is') {
    const names: Record<string, string> = { starred: 'Starred messages', mentioned: 'Mentions', dm: 'Direct messages', unread: 'Unread messages' };
    if (names[terms[0].operand]) return names[terms[0].operand];
  }
  const channelId = narrowChannelId(terms);
  const topic = narrowTopic(terms);
  if (terms.every((t) => !t.negated && (t.operator === 'channel' || t.operator === 'topic')) && channelId !== undefined) {
    const name = lookup.channelName(channelId) ?? `channel ${channelId}`;
    return topic === undefined ? `#${name}` : `#${name} › ${topic}`;
  }
  const dm = narrowDmIds(terms);
  if (terms.length === 1 && dm) return `Direct messages with ${dm.map((id) => lookup.userName(id) ?? `user ${id}`).join(', ')}`;
  return 'Search results';
}
