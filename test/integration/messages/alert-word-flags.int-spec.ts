import { alertWordText, containsAlertWord } from '@app/domain/users';
import { DataSource } from 'typeorm';
import { alertWordParams, hasAlertWordInSql, hasAlertWordSql } from '../../../src/messages/persistence/alert-word-flags.js';
import { type Account, TestApp } from '../../support/test-app.js';
import { realmOf } from './fixtures.js';

/*
 * The alert-word SQL of alert-word-flags.ts (what sending and editing set `has_alert_word`
 * with) against PostgreSQL's regular expressions: it must agree with the domain's
 * containsAlertWord for every word, whatever characters it holds.
 */

let t: TestApp;
let ds: DataSource;
let realmId: number;
let user: Account;
let idle: Account;

const WORDS = ['deploy', 'c++', 'a.b', '(x)', 'back\\slash', 'ünï', 'two words', '$cash', 'a|b', '[x]', '^hat'];

beforeAll(async () => {
  t = await TestApp.start();
  ds = t.app.get(DataSource);
  realmId = await realmOf(ds, t.owner.id);
  user = await t.createUser();
  idle = await t.createUser();
});
afterAll(() => t.close());

async function words(userId: number, list: readonly string[]): Promise<void> {
  await ds.query(`DELETE FROM alert_words WHERE user_id = $1`, [userId]);
  await ds.query(`INSERT INTO alert_words (realm_id, user_id, word, lower_word) SELECT $1, $2, w, lower(w) FROM unnest($3::text[]) AS w`, [realmId, userId, list]);
}

/** hasAlertWordSql for one user and text. */
async function hit(userId: number, content: string): Promise<boolean> {
  const [row]: { hit: boolean }[] = await ds.query(`SELECT ${hasAlertWordSql('$1::int', 2)} AS hit`, [userId, ...alertWordParams(alertWordText(content))]);
  return row.hit;
}

const TEXTS = [
  'we deploy today',
  'Deploy!',
  'redeploy',
  'deployment',
  '(deploy)',
  'I like C++.',
  'cpp',
  'axb',
  'see a.b, then',
  'call (x) now',
  'a back\\slash here',
  'ÜNÏ',
  'two  words',
  'two words:',
  'pay $cash?',
  'a|b',
  'ab',
  '[x]',
  '^hat',
  'hat',
  '```\ndeploy\n```',
  '> deploy',
];

describe('alert-word-flags (hasAlertWordSql / hasAlertWordInSql)', () => {
  it('agrees with the domain’s containsAlertWord', async () => {
    await words(user.id, WORDS);
    for (const content of TEXTS) {
      const text = alertWordText(content);
      const expected = WORDS.some((w) => containsAlertWord(text, w.toLowerCase()));
      expect([content, await hit(user.id, content)]).toEqual([content, expected]);
    }
    expect(TEXTS.filter((c) => WORDS.some((w) => containsAlertWord(alertWordText(c), w.toLowerCase())))).toHaveLength(14);
  });

  it('never matches for a user without words, or a deactivated one', async () => {
    await words(user.id, ['deploy']);
    expect(await hit(user.id, 'deploy')).toBe(true);
    expect(await hit(idle.id, 'deploy')).toBe(false);
    await ds.query(`UPDATE users SET is_active = false WHERE id = $1`, [user.id]);
    try {
      expect(await hit(user.id, 'deploy')).toBe(false);
    } finally {
      await ds.query(`UPDATE users SET is_active = true WHERE id = $1`, [user.id]);
    }
  });

  it('reads the text from a column of a batch', async () => {
    await words(user.id, ['deploy', 'c++']);
    const [, before, after, replacement] = alertWordParams('');
    const rows: { n: number; hit: boolean }[] = await ds.query(
      `SELECT x.n, ${hasAlertWordInSql('$1::int', 'x.text', 2)} AS hit
       FROM unnest($5::text[]) WITH ORDINALITY AS x(text, n) ORDER BY x.n`,
      [user.id, before, after, replacement, ['no', alertWordText('Deploy now'), alertWordText('c++!'), alertWordText('cxx')]],
    );
    expect(rows.map((r) => r.hit)).toEqual([false, true, true, false]);
  });
});
