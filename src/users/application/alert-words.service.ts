import { type Actor, alertWordKey, cleanAlertWords, newAlertWords } from '@app/domain/users';
import { Injectable } from '@nestjs/common';
import { type Tx, UnitOfWork } from '../../shared/application/unit-of-work.js';
import { alertWordsEvent } from './alert-words.events.js';
import { AlertWordQueries } from './alert-words.ports.js';

/** Alert words (Zulip's zerver/views/alert_words.py and zerver/actions/alert_words.py). */
@Injectable()
export class AlertWordsService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly queries: AlertWordQueries,
  ) {}

  /** GET /users/me/alert_words and register's `alert_words`: the caller's words, oldest first. */
  listAlertWords(actor: Actor): Promise<string[]> {
    return this.queries.list(actor.realmId, actor.userId);
  }

  /**
   * POST /users/me/alert_words: the words, stripped and without blank ones, that are new to the
   * user case-insensitively; answers (and tells the user's queues) the whole list.
   */
  async addAlertWords(actor: Actor, words: readonly string[]): Promise<string[]> {
    return this.uow.run(async (tx) => {
      const added = newAlertWords(await tx.alertWords.list(actor.realmId, actor.userId), cleanAlertWords(words));
      await tx.alertWords.add(actor.realmId, actor.userId, added.map((word) => ({ word, key: alertWordKey(word) })));
      return this.announce(tx, actor);
    });
  }

  /** DELETE /users/me/alert_words: removes the words named (case-insensitively, as sent: not stripped). */
  async removeAlertWords(actor: Actor, words: readonly string[]): Promise<string[]> {
    return this.uow.run(async (tx) => {
      await tx.alertWords.remove(actor.realmId, actor.userId, words.map(alertWordKey));
      return this.announce(tx, actor);
    });
  }

  /** The list after the change, for the answer and an `alert_words` event (sent even when nothing changed, as Zulip does). */
  private async announce(tx: Tx, actor: Actor): Promise<string[]> {
    const words = await tx.alertWords.list(actor.realmId, actor.userId);
    tx.afterCommit([alertWordsEvent(actor.realmId, actor.userId, words)]);
    return words;
  }
}
