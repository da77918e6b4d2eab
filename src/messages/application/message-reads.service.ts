import { DomainError } from '@app/domain/shared';
import { hasContentAccess, pairKey, type Viewer } from '@app/domain/channels';
import { invalidMessage } from '@app/domain/messages';
import { EMPTY_TOPIC_DISPLAY_NAME } from '@app/domain/realm';
import type { Actor } from '@app/domain/users';
import { Injectable } from '@nestjs/common';
import { isStorableId } from '../../shared/application/ids.js';
import { type Tx, UnitOfWork } from '../../shared/application/unit-of-work.js';
import { loadActorContext } from '../../users/index.js';
import { canAccessMessage, viewerOf } from './message-access.js';
import {
  type CompiledNarrow,
  type Condition,
  type FetchedMessage,
  MessageQueries,
  type NarrowTerm,
  type RangeResult,
} from './message-queries.js';
import type { MessageRecord } from './message.ports.js';


const badNarrow = (desc: string) => new DomainError(`Invalid narrow operator: ${desc}`, 'BAD_NARROW', 'invalid', { desc });

export interface FetchRequest {
  anchor: number | 'newest' | 'oldest' | 'first_unread' | null;
  numBefore: number;
  numAfter: number;
  includeAnchor: boolean;
  narrow: NarrowTerm[];
  messageIds: number[] | null;
}

/** GET /messages and GET /messages/{id}. */
@Injectable()
export class MessageReadsService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly queries: MessageQueries,
  ) {}

  async viewer(tx: Tx, actor: Actor): Promise<Viewer> {
    return viewerOf(actor, await loadActorContext(tx, actor));
  }

  async fetch(actor: Actor, req: FetchRequest): Promise<(RangeResult & { byIds: false }) | { byIds: true; messages: FetchedMessage[] }> {
    const narrow = await this.uow.run((tx) => this.compileNarrow(tx, actor, req.narrow));
    if (req.messageIds !== null) {
      return { byIds: true, messages: await this.queries.byIds(actor.realmId, actor.userId, narrow, req.messageIds.filter(isStorableId)) };
    }
    return {
      byIds: false,
      ...(await this.queries.range(actor.realmId, actor.userId, narrow, req.anchor!, req.numBefore, req.numAfter, req.includeAnchor)),
    };
  }

  /** A narrow compiled for the actor (unknown channels, users and operators are Zulip's BAD_NARROW errors). */
  async compile(actor: Actor, narrow: NarrowTerm[]): Promise<CompiledNarrow> {
    return this.uow.run((tx) => this.compileNarrow(tx, actor, narrow));
  }

  async message(actor: Actor, messageId: number): Promise<FetchedMessage> {
    return this.uow.run(async (tx) => {
      const m = await tx.messages.find(actor.realmId, messageId);
      if (m === null) throw invalidMessage();
      const flags = await tx.userMessages.flags(actor.userId, m.id);
      if (!(await this.canRead(tx, actor, m, flags !== null))) throw invalidMessage();
      return { message: m, flags };
    });
  }

  async canRead(tx: Tx, actor: Actor, m: MessageRecord, hasRow: boolean, forModification = false, viewer?: Viewer): Promise<boolean> {
    if (m.channelId === null) return hasRow;
    const channel = await tx.channels.findById(actor.realmId, m.channelId);
    const sub = await tx.subscriptions.records([actor.userId], [m.channelId]);
    const v = viewer ?? (await this.viewer(tx, actor));
    return canAccessMessage(m, hasRow, channel, v, sub.get(pairKey(actor.userId, m.channelId))?.active === true, forModification);
  }

  private async compileNarrow(tx: Tx, actor: Actor, terms: NarrowTerm[]): Promise<CompiledNarrow> {
    const narrow: CompiledNarrow = { channelHistory: null, conditions: [] };
    for (const t of terms) {
      if (t.operator === 'channel' || t.operator === 'stream') await this.channelTerm(tx, actor, t, narrow);
      else {
        const condition = await this.condition(tx, actor, t);
        if (condition !== null) narrow.conditions.push(condition);
      }
    }
    return narrow;
  }

  /** The first readable, non-negated channel searches the channel's history; others filter. */
  private async channelTerm(tx: Tx, actor: Actor, t: NarrowTerm, narrow: CompiledNarrow): Promise<void> {
    const found =
      typeof t.operand === 'number'
        ? isStorableId(t.operand)
          ? await tx.channels.findById(actor.realmId, t.operand)
          : null
        : typeof t.operand === 'string'
          ? /^\d+$/.test(t.operand)
            ? isStorableId(Number(t.operand))
              ? await tx.channels.findById(actor.realmId, Number(t.operand))
              : null
            : ((await tx.channels.findByNames(actor.realmId, [t.operand.trim()]))[0] ?? null)
          : null;
    if (found === null) throw badNarrow(`unknown channel ${String(t.operand)}`);
    const viewer = await this.viewer(tx, actor);
    const sub = await tx.subscriptions.records([actor.userId], [found.id]);
    const access = hasContentAccess(found, viewer, sub.get(pairKey(actor.userId, found.id))?.active === true);
    if (!t.negated && access && narrow.channelHistory === null) {
      narrow.channelHistory = { channelId: found.id, requireRow: !found.snapshot().historyPublicToSubscribers };
    } else narrow.conditions.push({ kind: 'channel', channelId: found.id, negated: t.negated });
  }

  /** Every operator but `channel`: its condition, or null for `near` (an anchor hint for clients). */
  private async condition(tx: Tx, actor: Actor, t: NarrowTerm): Promise<Condition | null> {
    const negated = t.negated;
    switch (t.operator) {
      case 'topic':
      case 'subject':
        if (typeof t.operand !== 'string') throw badNarrow(`unknown topic ${String(t.operand)}`);
        return { kind: 'topic', topic: t.operand === EMPTY_TOPIC_DISPLAY_NAME ? '' : t.operand, negated };
      case 'sender':
        return { kind: 'sender', userId: await this.userOf(tx, actor, t.operand), negated };
      case 'dm':
      case 'pm-with':
        return { kind: 'recipient', recipientId: await this.directRecipient(tx, actor, t.operand), negated };
      case 'dm-including':
        return { kind: 'dm_including', userId: await this.userOf(tx, actor, t.operand), negated };
      case 'is': {
        const what = t.operand === 'private' ? 'dm' : t.operand;
        if (!['dm', 'starred', 'unread', 'mentioned', 'resolved', 'alerted'].includes(what as string)) {
          throw badNarrow(`unknown 'is' operand ${String(t.operand)}`);
        }
        return { kind: 'is', what: what as 'dm', negated };
      }
      case 'id': {
        const id = typeof t.operand === 'string' && /^\d+$/.test(t.operand) ? Number(t.operand) : t.operand;
        if (typeof id !== 'number' || !Number.isSafeInteger(id)) throw badNarrow('Invalid message ID');
        return { kind: 'id', id, negated };
      }
      case 'search':
        if (typeof t.operand !== 'string') throw badNarrow('unknown search');
        return { kind: 'search', text: t.operand, negated };
      case 'has':
        if (!['attachment', 'link', 'image', 'reaction'].includes(t.operand as string)) throw badNarrow(`unknown 'has' operand ${String(t.operand)}`);
        return { kind: 'has', what: t.operand as 'link', negated };
      case 'near':
        return null; // an anchor hint for clients; the server's range comes from `anchor`
      default:
        throw badNarrow(`unknown operator ${t.operator}`);
    }
  }

  /** The conversation of the actor and the listed users (ids or emails, a list or comma-separated). */
  private async directRecipient(tx: Tx, actor: Actor, operand: unknown): Promise<number | null> {
    const operands = Array.isArray(operand) ? operand : typeof operand === 'string' ? operand.split(',').map((s) => s.trim()) : [operand];
    const ids: number[] = [];
    for (const o of operands) ids.push(await this.userOf(tx, actor, o));
    return this.queries.directRecipientOf(actor.realmId, [actor.userId, ...ids]);
  }

  private async userOf(tx: Tx, actor: Actor, operand: unknown): Promise<number> {
    if (typeof operand === 'number' || (typeof operand === 'string' && /^\d+$/.test(operand))) {
      const u = isStorableId(Number(operand)) ? await tx.users.findById(actor.realmId, Number(operand)) : null;
      if (u) return u.id;
    } else if (typeof operand === 'string') {
      const u = (await tx.users.findManyByApiEmails(actor.realmId, [operand])).get(operand.trim().toLowerCase());
      if (u) return u.id;
    }
    throw badNarrow(`unknown user ${String(operand)}`);
  }
}

