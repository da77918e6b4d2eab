import { badRequest } from '../shared/domain-error.js';

/** The most messages one GET /messages may ask for (Zulip's MAX_MESSAGES_PER_FETCH). */
export const MAX_MESSAGES_PER_FETCH = 5000;

/** Where a range of a narrow starts: a message id, or one of Zulip's named anchors. */
export type Anchor = number | 'newest' | 'oldest' | 'first_unread';

/**
 * Which messages of a narrow a fetch returns: the listed ones (`message_ids`), or a range around
 * an anchor. Both shapes carry every field so a reader takes either as it comes.
 */
export type FetchWindow =
  | { anchor: null; numBefore: 0; numAfter: 0; includeAnchor: true; messageIds: number[] }
  | { anchor: Anchor; numBefore: number; numAfter: number; includeAnchor: boolean; messageIds: null };

/** The window parameters of GET /messages, as the client sent them (undefined: absent). */
export interface FetchWindowParams {
  anchor?: string;
  useFirstUnreadAnchor?: boolean;
  numBefore?: number;
  numAfter?: number;
  includeAnchor?: boolean;
  messageIds?: readonly number[];
}

const WINDOW_PARAMETERS = 'num_before, num_after, anchor, message_ids, include_anchor, use_first_unread_anchor';

/**
 * As Zulip's parse_anchor_value: `use_first_unread_anchor` wins over any `anchor` (zulip-terminal
 * sends `anchor=0` with it); else the anchor is required, a named one or an integer (surrounding
 * whitespace allowed), negative ones meaning 0.
 */
export function parseAnchor(raw: string | undefined, useFirstUnread = false): Anchor {
  if (useFirstUnread) return 'first_unread';
  if (raw === undefined) throw badRequest("Missing 'anchor' argument.");
  if (raw === 'newest' || raw === 'oldest' || raw === 'first_unread') return raw;
  if (!/^-?\d+$/.test(raw.trim())) throw badRequest('Invalid anchor');
  return Math.max(0, Number(raw.trim()));
}

/** Excluding the anchor makes sense only when the range does not reach past it on both sides. */
export function assertAnchorExcludable(w: { numBefore: number; numAfter: number; includeAnchor: boolean }): void {
  if (!w.includeAnchor && w.numBefore > 0 && w.numAfter > 0) throw badRequest('The anchor can only be excluded at an end of the range');
}

/** The messages `message_ids` names, as a window (anchor and range do not apply). */
export const listedMessages = (messageIds: readonly number[]): FetchWindow => ({
  anchor: null,
  numBefore: 0,
  numAfter: 0,
  includeAnchor: true,
  messageIds: [...messageIds],
});

/**
 * GET /messages's window (Zulip's get_messages_backend): `message_ids` excludes every range
 * parameter; otherwise the anchor (see `parseAnchor`), then at most 5000 messages in all, then
 * an excluded anchor only at an end of the range. Counts default to 0, `include_anchor` to true.
 */
export function parseFetchWindow(p: FetchWindowParams): FetchWindow {
  if (p.messageIds !== undefined) {
    if (p.anchor !== undefined || p.numBefore !== undefined || p.numAfter !== undefined || p.useFirstUnreadAnchor !== undefined) {
      throw badRequest(`Unsupported parameter combination: ${WINDOW_PARAMETERS}`, { parameters: WINDOW_PARAMETERS });
    }
    return listedMessages(p.messageIds);
  }
  const anchor = parseAnchor(p.anchor, p.useFirstUnreadAnchor);
  const numBefore = p.numBefore ?? 0;
  const numAfter = p.numAfter ?? 0;
  if (numBefore + numAfter > MAX_MESSAGES_PER_FETCH) throw badRequest(`Too many messages requested (maximum ${MAX_MESSAGES_PER_FETCH}).`);
  const includeAnchor = p.includeAnchor ?? true;
  assertAnchorExcludable({ numBefore, numAfter, includeAnchor });
  return { anchor, numBefore, numAfter, includeAnchor, messageIds: null };
}
