import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Linkifiers and code playgrounds (the allowed email domains already have their table). */
export class RealmResources1764100000000 implements MigrationInterface {
  name = 'RealmResources1764100000000';

  async up(q: QueryRunner): Promise<void> {
    // Linkifiers apply in "order" (new ones go last), ties by id. A pattern is unique in its
    // organization; the index keys on its md5 so long patterns fit in a btree entry.
    await q.query(`
      CREATE TABLE linkifiers (
        id serial PRIMARY KEY,
        realm_id integer NOT NULL REFERENCES realms (id),
        pattern text NOT NULL,
        url_template text NOT NULL,
        example_input text,
        reverse_template text,
        alternative_url_templates text[] NOT NULL DEFAULT '{}',
        "order" integer NOT NULL DEFAULT 0
      )`);
    await q.query(`CREATE UNIQUE INDEX linkifiers_realm_pattern_key ON linkifiers (realm_id, md5(pattern))`);

    // "View in playground" links of code blocks; (language, name) is unique per organization.
    await q.query(`
      CREATE TABLE code_playgrounds (
        id serial PRIMARY KEY,
        realm_id integer NOT NULL REFERENCES realms (id),
        name text NOT NULL,
        pygments_language text NOT NULL,
        url_template text NOT NULL
      )`);
    await q.query(
      `CREATE UNIQUE INDEX code_playgrounds_realm_language_name_key ON code_playgrounds (realm_id, pygments_language, md5(name))`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE code_playgrounds, linkifiers`);
  }
}
