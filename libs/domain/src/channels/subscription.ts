import { badRequest } from '../shared/domain-error.js';

export const BOOLEAN_SUBSCRIPTION_PROPERTIES = [
  'is_muted',
  'in_home_view',
  'pin_to_top',
  'desktop_notifications',
  'audible_notifications',
  'push_notifications',
  'email_notifications',
  'wildcard_mentions_notify',
] as const;

export type SubscriptionProperty = 'color' | (typeof BOOLEAN_SUBSCRIPTION_PROPERTIES)[number];

/** A stored change: in_home_view is the legacy inverse of is_muted. */
export type SubscriptionChange =
  | { column: 'color'; value: string }
  | { column: Exclude<SubscriptionProperty, 'color' | 'in_home_view'>; value: boolean };

const COLOR = /^#([a-fA-F0-9]{3,6})$/;

export function isValidColor(value: unknown): value is string {
  return typeof value === 'string' && COLOR.test(value);
}

/** Validates one {property, value} of the subscription-properties endpoints. */
export function parseSubscriptionChange(property: string, value: unknown): SubscriptionChange {
  if (property === 'color') {
    if (!isValidColor(value)) throw badRequest('color is not a valid hex color code');
    return { column: 'color', value };
  }
  if ((BOOLEAN_SUBSCRIPTION_PROPERTIES as readonly string[]).includes(property)) {
    if (typeof value !== 'boolean') throw badRequest(`${property} is not a boolean`);
    if (property === 'in_home_view') return { column: 'is_muted', value: !value };
    return { column: property as Exclude<SubscriptionChange['column'], 'color'>, value };
  }
  throw badRequest(`Unknown subscription property: ${property}`);
}

/** Zulip's palette for new subscriptions (zerver/lib/stream_color.py). */
export const STREAM_ASSIGNMENT_COLORS = [
  '#76ce90', '#fae589', '#a6c7e5', '#e79ab5', '#bfd56f', '#f4ae55', '#b0a5fd', '#addfe5',
  '#f5ce6e', '#c2726a', '#94c849', '#bd86e5', '#ee7e4a', '#a6dcbf', '#95a5fd', '#53a063',
  '#9987e1', '#e4523d', '#c2c2c2', '#4f8de4', '#c6a8ad', '#e7cc4d', '#c8bebf', '#a47462',
];
export const DEFAULT_STREAM_COLOR = '#c2c2c2';

/**
 * Zulip's pick_colors: channels the user never subscribed to get, in channel-id order, the
 * palette colours the user does not use yet (requested colours first count as used); once the
 * palette is exhausted, the colour of `channel id mod 24`.
 */
export function pickColors(
  usedColors: ReadonlySet<string>,
  channelIds: readonly number[],
  requested: ReadonlyMap<number, string>,
): Map<number, string> {
  const used = new Set(usedColors);
  const out = new Map<number, string>();
  const others: number[] = [];
  for (const id of [...channelIds].sort((a, b) => a - b)) {
    const want = requested.get(id);
    if (want !== undefined) {
      out.set(id, want);
      used.add(want);
    } else others.push(id);
  }
  const available = STREAM_ASSIGNMENT_COLORS.filter((c) => !used.has(c));
  others.forEach((id, i) => out.set(id, available[i] ?? STREAM_ASSIGNMENT_COLORS[id % STREAM_ASSIGNMENT_COLORS.length]));
  return out;
}
