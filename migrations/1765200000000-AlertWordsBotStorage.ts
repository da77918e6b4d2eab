import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Alert words and bot storage (issue 12): a user's alert words, matched against new and edited
 * messages by the per-recipient flag SQL of the messages context, and a bot's key/value store.
 */
export class AlertWordsBotStorage1765200000000 implements MigrationInterface {
  name = 'AlertWordsBotStorage1765200000000';

  async up(q: QueryRunner): Promise<void> {
    // `lower_word` is the word as matched and compared (lower-cased by the server, as Python's
    // str.lower does); one word per lower case and user. Its index also serves the per-user
    // lookups of sending.
    await q.query(`
      CREATE TABLE alert_words (
        id serial PRIMARY KEY,
        realm_id integer NOT NULL REFERENCES realms (id),
        user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        word text NOT NULL,
        lower_word text NOT NULL
      )`);
    await q.query(`CREATE UNIQUE INDEX alert_words_user_lower_word_key ON alert_words (user_id, lower_word)`);

    // Keys have no length limit but the bot's total (USER_STATE_SIZE_LIMIT), so they are unique
    // through their hash (a B-tree entry of the key itself could exceed the index row limit).
    await q.query(`
      CREATE TABLE bot_storage (
        id serial PRIMARY KEY,
        realm_id integer NOT NULL REFERENCES realms (id),
        bot_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        key text NOT NULL,
        value text NOT NULL
      )`);
    await q.query(`CREATE UNIQUE INDEX bot_storage_bot_key_key ON bot_storage (bot_id, md5(key))`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE bot_storage, alert_words`);
  }
}
