import type { MutedUserEntry } from '@app/domain/users';
import type { Tx } from '../../shared/application/unit-of-work.js';

/** The users a user has muted, in the transaction (Zulip's MutedUser rows). */
export abstract class MutedUserRepository {
  /** The user's muted users, in the order they were muted. */
  abstract list(realmId: number, userId: number): Promise<MutedUserEntry[]>;
  /** Mutes; false when the user had muted them already (nothing written). */
  abstract add(realmId: number, userId: number, mutedUserId: number, dateMuted: Date): Promise<boolean>;
  /** Unmutes; false when they were not muted. */
  abstract remove(realmId: number, userId: number, mutedUserId: number): Promise<boolean>;
}

/** Reads outside a transaction: POST /register's `muted_users`. */
export abstract class MutedUserQueries {
  abstract list(realmId: number, userId: number): Promise<MutedUserEntry[]>;
}

/**
 * Users owns it, messages implements it (Zulip's do_mark_muted_user_messages_as_read): the
 * muted user's unread messages to the muter become read, with the read-flag event to the muter.
 */
export abstract class MutedSenderMessages {
  abstract markRead(tx: Tx, realmId: number, userId: number, senderId: number): Promise<void>;
}

declare module '../../shared/application/unit-of-work.js' {
  interface Tx {
    readonly mutedUsers: MutedUserRepository;
  }
}
