import { badRequest } from '../shared/domain-error.js';

/** Per-user message flags and their bits (Zulip's UserMessage.flags). */
export const FLAG_BITS = {
  read: 1,
  starred: 2,
  collapsed: 4,
  mentioned: 8,
  stream_wildcard_mentioned: 16,
  topic_wildcard_mentioned: 32,
  group_mentioned: 64,
  force_expand: 128,
  force_collapse: 256,
  has_alert_word: 512,
  historical: 1024,
} as const;
export type ApiFlag = keyof typeof FLAG_BITS;
export const EDITABLE_FLAGS: readonly ApiFlag[] = ['read', 'starred', 'collapsed'];

/** Flags shown for a message the user can see without a per-user row. */
export const HISTORICAL_FLAGS = FLAG_BITS.read | FLAG_BITS.historical;

/** The API's flag list: bit order, plus the computed `wildcard_mentioned`. */
export function flagsToApi(bits: number): string[] {
  const out: string[] = (Object.entries(FLAG_BITS) as [ApiFlag, number][]).filter(([, b]) => (bits & b) !== 0).map(([f]) => f);
  if ((bits & (FLAG_BITS.stream_wildcard_mentioned | FLAG_BITS.topic_wildcard_mentioned)) !== 0) out.push('wildcard_mentioned');
  return out;
}

/** POST /messages/flags: the flag is checked before the operation. */
export function parseFlagChange(flag: string, op: string): { bit: number; add: boolean; flag: ApiFlag } {
  if (!(flag in FLAG_BITS)) throw badRequest(`Invalid flag: '${flag}'`);
  if (!EDITABLE_FLAGS.includes(flag as ApiFlag)) throw badRequest(`Flag not editable: '${flag}'`);
  if (op !== 'add' && op !== 'remove') throw badRequest(`Invalid message flag operation: '${op}'`);
  return { bit: FLAG_BITS[flag as ApiFlag], add: op === 'add', flag: flag as ApiFlag };
}
