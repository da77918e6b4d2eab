import type { PresenceTimes } from '../../src/presence/presence.js';
import type { TypingRequest } from '../../src/presence/typing.js';
import { secondsAfter, T0 } from './common.js';

/** A stored presence: active and connected `activeAgo` / `connectedAgo` seconds before T0 (null: never). */
export function aPresence(activeAgo: number | null, connectedAgo: number | null = activeAgo): PresenceTimes {
  return {
    lastActive: activeAgo === null ? null : secondsAfter(T0, -activeAgo),
    lastConnected: connectedAgo === null ? null : secondsAfter(T0, -connectedAgo),
  };
}

/** POST /typing as decoded: a "start" to user 61 unless told otherwise. */
export function aTypingRequest(o: Partial<TypingRequest> = {}): TypingRequest {
  return { op: 'start', type: 'direct', to: [61], channelId: null, topic: null, ...o };
}
