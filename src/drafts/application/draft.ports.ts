import type { Draft, DraftState, ReminderView, ScheduledMessage, ScheduledMessageState } from '@app/domain/drafts';

export abstract class DraftRepository {
  /** Stores new drafts in one statement; ids come back in the order given. */
  abstract insert(realmId: number, drafts: readonly Draft[]): Promise<number[]>;
  /** The owner's draft (null when missing or someone else's), locked for update. */
  abstract findOwned(realmId: number, ownerId: number, draftId: number): Promise<Draft | null>;
  abstract save(realmId: number, draft: Draft): Promise<void>;
  abstract delete(realmId: number, draftId: number): Promise<void>;
}

export interface SavedSnippetRecord {
  id: number;
  title: string;
  content: string;
  dateCreated: Date;
}

/** Saved snippets take the thin path: no aggregate, just rows of their owner. */
export abstract class SavedSnippetRepository {
  abstract insert(s: { realmId: number; userId: number; title: string; content: string; now: Date }): Promise<number>;
  /** Locks the owner's snippet; false when missing or someone else's. */
  abstract lockOwned(realmId: number, userId: number, snippetId: number): Promise<boolean>;
  /** Changes the given fields and returns the snippet after the edit. */
  abstract update(realmId: number, snippetId: number, change: { title?: string; content?: string }): Promise<SavedSnippetRecord>;
  abstract delete(realmId: number, snippetId: number): Promise<void>;
}

export interface NewReminder {
  realmId: number;
  userId: number;
  targetMessageId: number;
  /** As sent (delivery formats the text again from it). */
  note: string;
  content: string;
  renderedContent: string;
  scheduledAt: Date;
  now: Date;
}

/** A reminder the delivery worker holds (row-locked) in its transaction. */
export interface DueReminder {
  id: number;
  realmId: number;
  userId: number;
  targetMessageId: number;
  note: string;
  content: string;
  renderedContent: string;
  scheduledAt: Date;
}

export abstract class ReminderRepository {
  abstract insert(r: NewReminder): Promise<number>;
  /** Locks the owner's reminder; false when missing or someone else's. */
  abstract lockOwned(realmId: number, userId: number, reminderId: number): Promise<boolean>;
  abstract delete(realmId: number, reminderId: number): Promise<void>;
  /**
   * The oldest reminder due at `now` (any organization) that is neither delivered nor failed
   * nor being delivered by another transaction, locked until this one ends; null when none.
   */
  abstract claimDue(now: Date): Promise<DueReminder | null>;
  /** `messageId`: the message sent, null when nothing could be sent. */
  abstract markDelivered(reminderId: number, messageId: number | null): Promise<void>;
  /** Marks an undelivered reminder failed; false when it was delivered meanwhile (left as it is). */
  abstract markFailed(reminderId: number, failureMessage: string): Promise<boolean>;
}

/** A due scheduled message the delivery worker holds (row-locked) in its transaction. */
export interface DueScheduledMessage {
  realmId: number;
  message: ScheduledMessage;
}

export abstract class ScheduledMessageRepository {
  /** Stores a new scheduled message; returns its id. */
  abstract insert(realmId: number, m: ScheduledMessage): Promise<number>;
  /** The owner's scheduled message (null when missing or someone else's), locked for update. */
  abstract findOwned(realmId: number, ownerId: number, id: number): Promise<ScheduledMessage | null>;
  abstract save(realmId: number, m: ScheduledMessage): Promise<void>;
  abstract delete(realmId: number, id: number): Promise<void>;
  /**
   * The oldest scheduled message due at `now` (any organization) that is neither delivered nor
   * failed nor being delivered by another transaction nor in `skip`, locked until this one
   * ends; null when none.
   */
  abstract claimDue(now: Date, skip: readonly number[]): Promise<DueScheduledMessage | null>;
  /**
   * Marks where a delivery attempt starts in this transaction (a savepoint), so that a failed
   * attempt can be undone while the row stays locked and the failure is recorded in the same
   * transaction.
   */
  abstract beginAttempt(): Promise<void>;
  /** Undoes everything written since beginAttempt (and makes the transaction usable again). */
  abstract undoAttempt(): Promise<void>;
}

export abstract class DraftQueries {
  /** The user's drafts, oldest edit first. */
  abstract drafts(realmId: number, userId: number): Promise<DraftState[]>;
  /** The user's saved snippets by id. */
  abstract savedSnippets(realmId: number, userId: number): Promise<SavedSnippetRecord[]>;
  /** The user's undelivered reminders (failed ones too), by delivery time. */
  abstract reminders(realmId: number, userId: number): Promise<ReminderView[]>;
  /** The user's undelivered scheduled messages (failed ones too), by delivery time. */
  abstract scheduledMessages(realmId: number, userId: number): Promise<ScheduledMessageState[]>;
  /** The asked lists of the four above, in one statement (those not asked for are empty). */
  abstract userLists(realmId: number, userId: number, parts: UserListParts): Promise<UserLists>;
}

/** Which of a user's lists `DraftQueries.userLists` reads. */
export interface UserListParts {
  drafts: boolean;
  savedSnippets: boolean;
  reminders: boolean;
  scheduledMessages: boolean;
}

/** A user's drafts, saved snippets, reminders and scheduled messages, each in its own order. */
export interface UserLists {
  drafts: DraftState[];
  savedSnippets: SavedSnippetRecord[];
  reminders: ReminderView[];
  scheduledMessages: ScheduledMessageState[];
}

declare module '../../shared/application/unit-of-work.js' {
  interface Tx {
    readonly drafts: DraftRepository;
    readonly savedSnippets: SavedSnippetRepository;
    readonly reminders: ReminderRepository;
    readonly scheduledMessages: ScheduledMessageRepository;
  }
}
