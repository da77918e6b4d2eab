import { DomainError } from '@app/domain/shared';
import { type Channel, hasContentAccess, pairKey, type Viewer } from '@app/domain/channels';
import { checkSpectatorFetch, invalidMessage } from '@app/domain/messages';
import { EMPTY_TOPIC_DISPLAY_NAME } from '@app/domain/realm';
import type { Actor } from '@app/domain/users';
import { Injectable } from '@nestjs/common';
import { isStorableId } from '../../shared/application/ids.js';
import { type Tx, type TxRepositories, UnitOfWork } from '../../shared/application/unit-of-work.js';
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

  async viewer(tx: TxRepositories, actor: Actor): Promise<Viewer> {
    return viewerOf(actor, await loadActorContext(tx, actor));
  }

  async fetch(actor: Actor, req: FetchRequest): Promise<FetchResult> {
    const narrow = await this.uow.read((tx) => this.compileNarrow(tx, { realmId: actor.realmId, actor }, req.narrow));
    return this.read(actor.realmId, actor.userId, narrow, req);
  }

  /**
   * A fetch without an account (Zulip's spectators, under /json): only where the organization
   * allows them (`allowed`), only with a `channels:web-public` narrow of spectator operators, and
   * only messages of web-public channels, all read; `first_unread` is the newest.
   */
  async fetchAsSpectator(realmId: number, allowed: boolean, req: FetchRequest): Promise<FetchResult> {
    checkSpectatorFetch(allowed, req.narrow);
    const narrow = await this.uow.read((tx) => this.compileNarrow(tx, { realmId, actor: null }, req.narrow));
    return this.read(realmId, 0, { ...narrow, channelHistory: null, spectator: true }, { ...req, anchor: req.anchor === 'first_unread' ? 'newest' : req.anchor });
  }

  private async read(realmId: number, userId: number, narrow: CompiledNarrow, req: FetchRequest): Promise<FetchResult> {
    if (req.messageIds !== null) {
      return { byIds: true, messages: await this.queries.byIds(realmId, userId, narrow, req.messageIds.filter(isStorableId)) };
    }
    return { byIds: false, ...(await this.queries.range(realmId, userId, narrow, req.anchor!, req.numBefore, req.numAfter, req.includeAnchor)) };
  }

  /** A narrow compiled for the actor (unknown channels, users and operators are Zulip's BAD_NARROW errors). */
  async compile(actor: Actor, narrow: NarrowTerm[]): Promise<CompiledNarrow> {
    return this.uow.read((tx) => this.compileNarrow(tx, { realmId: actor.realmId, actor }, narrow));
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

  /**
   * Every channel, user and conversation the narrow names is looked up once, together (a fixed
   * number of statements however many terms); then the terms are read in order, so the first
   * bad one is the error, as in Zulip.
   */
  private async compileNarrow(tx: TxRepositories, reader: NarrowReader, terms: NarrowTerm[]): Promise<CompiledNarrow> {
    const refs = await this.resolveReferences(tx, reader, terms);
    const narrow: CompiledNarrow = { channelHistory: null, conditions: [] };
    for (const t of terms) {
      if (t.operator === 'channel' || t.operator === 'stream') this.channelTerm(refs, t, narrow);
      else if (reader.actor === null && (t.operator === 'channels' || t.operator === 'streams')) continue; // web-public: the spectator's whole scope
      else {
        const condition = this.condition(refs, t);
        if (condition !== null) narrow.conditions.push(condition);
      }
    }
    return narrow;
  }

  private async resolveReferences(tx: TxRepositories, reader: NarrowReader, terms: NarrowTerm[]): Promise<NarrowReferences> {
    const { realmId, actor } = reader;
    const channelRefs = terms.filter((t) => t.operator === 'channel' || t.operator === 'stream').map((t) => channelRef(t.operand));
    const userRefs = terms.flatMap((t) => {
      if (t.operator === 'sender' || t.operator === 'dm-including') return [userRef(t.operand)];
      if (t.operator === 'dm' || t.operator === 'pm-with') return directOperands(t.operand).map(userRef);
      return [];
    });
    const channels = await tx.channels.findByIdsOrNames(realmId, idsOf(channelRefs), namesOf(channelRefs));
    const byId = idsOf(userRefs);
    const byEmail = namesOf(userRefs);
    const users = byId.length > 0 ? await tx.users.findManyByIds(realmId, byId) : new Map<number, unknown>();
    const emails = byEmail.length > 0 ? await tx.users.findManyByApiEmails(realmId, byEmail) : new Map<string, { id: number }>();
    const refs: NarrowReferences = {
      actorId: actor?.userId ?? null,
      channelsById: new Map(channels.map((c) => [c.id, c])),
      // The oldest of channels whose names differ only in case, as a lookup by name finds first.
      channelsByName: new Map(channels.toReversed().map((c) => [c.name.toLowerCase(), c])),
      access: new Map(),
      userIds: new Set(users.keys()),
      userIdsByEmail: new Map([...emails].map(([email, u]) => [email, u.id])),
      directRecipients: new Map(),
    };
    if (actor === null) {
      for (const c of channels) refs.access.set(c.id, c.snapshot().isWebPublic && !c.isArchived);
      return refs; // a spectator's narrow names no conversation
    }
    if (channels.length > 0) {
      const viewer = await this.viewer(tx, actor);
      const subs = await tx.subscriptions.records([actor.userId], channels.map((c) => c.id));
      for (const c of channels) refs.access.set(c.id, hasContentAccess(c, viewer, subs.get(pairKey(actor.userId, c.id))?.active === true));
    }
    // Each conversation whose users all exist: the actor and them.
    const conversations = terms
      .filter((t) => t.operator === 'dm' || t.operator === 'pm-with')
      .map((t) => directOperands(t.operand).map((o) => resolveUser(refs, o)))
      .filter((set): set is number[] => set.every((id) => id !== null))
      .map((set) => [actor.userId, ...set]);
    const recipients = await tx.conversations.directRecipientsOf(actor.realmId, conversations);
    conversations.forEach((set, i) => refs.directRecipients.set(conversationKey(set), recipients[i]));
    return refs;
  }

  /** The first readable, non-negated channel searches the channel's history; others filter. */
  private channelTerm(refs: NarrowReferences, t: NarrowTerm, narrow: CompiledNarrow): void {
    const ref = channelRef(t.operand);
    const found = ref === null ? undefined : ref.kind === 'id' ? refs.channelsById.get(ref.value) : refs.channelsByName.get(ref.value.toLowerCase());
    if (found === undefined) throw badNarrow(`unknown channel ${String(t.operand)}`);
    if (refs.actorId === null) {
      if (refs.access.get(found.id) !== true) throw badNarrow(`unknown web-public channel ${String(t.operand)}`);
      narrow.conditions.push({ kind: 'channel', channelId: found.id, negated: t.negated });
      return;
    }
    if (!t.negated && refs.access.get(found.id) === true && narrow.channelHistory === null) {
      narrow.channelHistory = { channelId: found.id, requireRow: !found.snapshot().historyPublicToSubscribers };
    } else narrow.conditions.push({ kind: 'channel', channelId: found.id, negated: t.negated });
  }

  /** Every operator but `channel`: its condition, or null for `near` (an anchor hint for clients). */
  private condition(refs: NarrowReferences, t: NarrowTerm): Condition | null {
    const negated = t.negated;
    switch (t.operator) {
      case 'topic':
      case 'subject':
        if (typeof t.operand !== 'string') throw badNarrow(`unknown topic ${String(t.operand)}`);
        return { kind: 'topic', topic: t.operand === EMPTY_TOPIC_DISPLAY_NAME ? '' : t.operand, negated };
      case 'sender':
        return { kind: 'sender', userId: userOf(refs, t.operand), negated };
      case 'dm':
      case 'pm-with': {
        const ids = directOperands(t.operand).map((o) => userOf(refs, o));
        return { kind: 'recipient', recipientId: refs.directRecipients.get(conversationKey([refs.actorId ?? 0, ...ids])) ?? null, negated };
      }
      case 'dm-including':
        return { kind: 'dm_including', userId: userOf(refs, t.operand), negated };
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
}

/** Who a narrow is compiled for: a user, or a spectator of the organization (`actor` null). */
interface NarrowReader {
  realmId: number;
  actor: Actor | null;
}

type FetchResult = (RangeResult & { byIds: false }) | { byIds: true; messages: FetchedMessage[] };

/** What a narrow's terms name, looked up together. */
interface NarrowReferences {
  /** Null: a spectator. */
  actorId: number | null;
  channelsById: Map<number, Channel>;
  /** By lower-cased name. */
  channelsByName: Map<string, Channel>;
  /** Whether the actor may read each found channel's messages. */
  access: Map<number, boolean>;
  userIds: Set<number>;
  /** By lower-cased email. */
  userIdsByEmail: Map<string, number>;
  /** By conversationKey of the actor and the term's users. */
  directRecipients: Map<string, number | null>;
}

/** An operand that names something by id or by name (a channel name or a user's email). */
type Ref = { kind: 'id'; value: number } | { kind: 'name'; value: string };

const isDigits = (s: string): boolean => /^\d+$/.test(s);
const idsOf = (refs: (Ref | null)[]): number[] => refs.flatMap((r) => (r?.kind === 'id' ? [r.value] : []));
const namesOf = (refs: (Ref | null)[]): string[] => refs.flatMap((r) => (r?.kind === 'name' ? [r.value] : []));

/** Ids beyond PostgreSQL integers (and other operands that cannot name one) find nothing. */
function channelRef(operand: unknown): Ref | null {
  if (typeof operand === 'number' || (typeof operand === 'string' && isDigits(operand))) {
    return isStorableId(Number(operand)) ? { kind: 'id', value: Number(operand) } : null;
  }
  return typeof operand === 'string' ? { kind: 'name', value: operand.trim() } : null;
}

function userRef(operand: unknown): Ref | null {
  if (typeof operand === 'number' || (typeof operand === 'string' && isDigits(operand))) {
    return isStorableId(Number(operand)) ? { kind: 'id', value: Number(operand) } : null;
  }
  return typeof operand === 'string' ? { kind: 'name', value: operand.trim().toLowerCase() } : null;
}

function resolveUser(refs: NarrowReferences, operand: unknown): number | null {
  const ref = userRef(operand);
  if (ref === null) return null;
  if (ref.kind === 'id') return refs.userIds.has(ref.value) ? ref.value : null;
  return refs.userIdsByEmail.get(ref.value) ?? null;
}

function userOf(refs: NarrowReferences, operand: unknown): number {
  const id = resolveUser(refs, operand);
  if (id === null) throw badNarrow(`unknown user ${String(operand)}`);
  return id;
}

/** The users of a `dm` operand: ids or emails, a list or comma-separated. */
function directOperands(operand: unknown): unknown[] {
  return Array.isArray(operand) ? operand : typeof operand === 'string' ? operand.split(',').map((s) => s.trim()) : [operand];
}

const conversationKey = (userIds: readonly number[]): string => [...new Set(userIds)].sort((a, b) => a - b).join(',');
