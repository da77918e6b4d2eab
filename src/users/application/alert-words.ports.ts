/** A user's alert words in the transaction. */
export abstract class AlertWordRepository {
  /** The user's words, oldest first. */
  abstract list(realmId: number, userId: number): Promise<string[]>;
  /** Stores new words (a word whose lower case the user has by now is skipped). */
  abstract add(realmId: number, userId: number, words: readonly { word: string; key: string }[]): Promise<void>;
  /** Removes the words with these lower cases. */
  abstract remove(realmId: number, userId: number, keys: readonly string[]): Promise<void>;
}

/** Reads outside a transaction: GET /users/me/alert_words and POST /register. */
export abstract class AlertWordQueries {
  /** The user's words, oldest first. */
  abstract list(realmId: number, userId: number): Promise<string[]>;
}

declare module '../../shared/application/unit-of-work.js' {
  interface Tx {
    readonly alertWords: AlertWordRepository;
  }
}
