import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Navigation views (Zulip's NavigationView): a user's settings for the views of the left
 * sidebar, built-in ones (`inbox`, `recent` …) or custom ones with a name. One row per
 * (user, fragment); names are unique per user too (Zulip's views check both before inserting,
 * the constraints settle concurrent requests).
 */
export class NavigationViews1766500002510 implements MigrationInterface {
  name = 'NavigationViews1766500002510';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE navigation_views (
        id serial PRIMARY KEY,
        user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        fragment text NOT NULL,
        is_pinned boolean NOT NULL,
        name text,
        CONSTRAINT navigation_views_user_fragment_key UNIQUE (user_id, fragment)
      )`);
    await q.query(`CREATE UNIQUE INDEX navigation_views_user_name_key ON navigation_views (user_id, name) WHERE name IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE navigation_views`);
  }
}
