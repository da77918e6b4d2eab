import type { Message } from '../api/types';
import type { Narrow, Term } from '../narrow/narrow';
import { dmKey, isMentioned, messageDmKey } from './unread';

/**
 * Whether a message belongs to a narrow, as far as the page can tell: true, false, or undefined
 * for operators only the server can judge (full-text search, `has:`, ...). Used to put new and
 * moved messages into the open view without asking the server.
 */
export function messageMatches(narrow: Narrow, m: Message, myId: number): boolean | undefined {
  let result: boolean | undefined = true;
  for (const t of narrow) {
    const one = termMatches(t, m, myId);
    if (one === undefined) {
      result = undefined;
      continue;
    }
    if ((t.negated ? !one : one) === false) return false;
  }
  return result;
}

function termMatches(t: Term, m: Message, myId: number): boolean | undefined {
  switch (t.operator) {
    case 'channel':
      if (m.type !== 'stream') return false;
      return /^\d+$/.test(t.operand) ? m.stream_id === Number(t.operand) : streamName(m).toLowerCase() === t.operand.toLowerCase();
    case 'topic':
      return m.type === 'stream' && m.subject.toLowerCase() === t.operand.toLowerCase();
    case 'dm': {
      if (m.type !== 'private' || !/^\d+(,\d+)*$/.test(t.operand)) return m.type === 'private' ? undefined : false;
      const ids = t.operand.split(',').map(Number);
      return messageDmKey(m, myId) === dmKey(ids, myId);
    }
    case 'dm-including':
      if (m.type !== 'private' || !/^\d+$/.test(t.operand)) return m.type === 'private' ? undefined : false;
      return Array.isArray(m.display_recipient) && m.display_recipient.some((r) => r.id === Number(t.operand));
    case 'sender':
      return /^\d+$/.test(t.operand) ? m.sender_id === Number(t.operand) : m.sender_email.toLowerCase() === t.operand.toLowerCase();
    case 'is':
      switch (t.operand) {
        case 'dm':
        case 'private':
          return m.type === 'private';
        case 'starred':
          return m.flags.includes('starred');
        case 'mentioned':
          return isMentioned(m.flags);
        case 'unread':
          return !m.flags.includes('read');
        default:
          return undefined;
      }
    default:
      return undefined;
  }
}

export const streamName = (m: Message): string => (typeof m.display_recipient === 'string' ? m.display_recipient : '');
