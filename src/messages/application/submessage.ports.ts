import type { Submessage, SubmessageFacts } from '@app/domain/messages';

/** Submessages (Zulip's SubMessage): what POST /submessage reads and writes. */
export abstract class SubmessageRepository {
  /**
   * The message's first `widget` submessage and whether its sender attached any (one
   * statement; only asked for a message that has submessages).
   */
  abstract facts(messageId: number, messageSenderId: number): Promise<SubmessageFacts>;
  /** Stores a submessage and marks its message as having some, in one statement; returns its id. */
  abstract add(s: Omit<Submessage, 'id'>): Promise<number>;
}

declare module '../../shared/application/unit-of-work.js' {
  interface Tx {
    readonly submessages: SubmessageRepository;
  }
}
