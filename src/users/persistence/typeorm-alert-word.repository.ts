import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { AlertWordQueries, AlertWordRepository } from '../application/alert-words.ports.js';

const LIST = `SELECT word FROM alert_words WHERE realm_id = $1 AND user_id = $2 ORDER BY id`;

async function list(em: EntityManager | DataSource, realmId: number, userId: number): Promise<string[]> {
  const rows: { word: string }[] = await em.query(LIST, [realmId, userId]);
  return rows.map((r) => r.word);
}

export class TypeOrmAlertWordRepository extends AlertWordRepository {
  constructor(private readonly em: EntityManager) {
    super();
  }

  list(realmId: number, userId: number): Promise<string[]> {
    return list(this.em, realmId, userId);
  }

  async add(realmId: number, userId: number, words: readonly { word: string; key: string }[]): Promise<void> {
    if (words.length === 0) return;
    // Ordered by position so that ids (the list's order) follow the request.
    await this.em.query(
      `INSERT INTO alert_words (realm_id, user_id, word, lower_word)
       SELECT $1, $2, w.word, w.key FROM unnest($3::text[], $4::text[]) WITH ORDINALITY AS w(word, key, n) ORDER BY w.n
       ON CONFLICT (user_id, lower_word) DO NOTHING`,
      [realmId, userId, words.map((w) => w.word), words.map((w) => w.key)],
    );
  }

  async remove(realmId: number, userId: number, keys: readonly string[]): Promise<void> {
    if (keys.length === 0) return;
    await this.em.query(`DELETE FROM alert_words WHERE realm_id = $1 AND user_id = $2 AND lower_word = ANY($3::text[])`, [
      realmId,
      userId,
      keys,
    ]);
  }
}

@Injectable()
export class TypeOrmAlertWordQueries extends AlertWordQueries {
  constructor(private readonly ds: DataSource) {
    super();
  }

  list(realmId: number, userId: number): Promise<string[]> {
    return list(this.ds, realmId, userId);
  }
}
