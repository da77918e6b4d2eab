import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Uploaded avatars and organization images (Zulip's UserProfile.avatar_source and the Realm's
 * icon/logo/night-logo sources and versions):
 * - `users.avatar_path`: where the user's uploaded avatar is stored, `<realm id>/<40 random hex
 *   digits>` under the avatars directory (`<path>.png`, `<path>-medium.png`); null: Gravatar.
 *   A new upload gets a new path (and the avatar version its bump), so an avatar's URL never
 *   shows another image and cannot be guessed from the user's id.
 * - `realms.{icon,logo,night_logo}_source` (`G`/`D` until uploaded, then `U`) and `_version`,
 *   which the images' URLs carry (`/user_avatars/<realm id>/realm/icon.png?version=N`).
 * Both tables' settings versions (user list, organization settings) follow from their triggers:
 * avatar_version changes with every avatar_path change.
 */
export class Avatars1766500002700 implements MigrationInterface {
  name = 'Avatars1766500002700';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE users ADD COLUMN avatar_path text CHECK (avatar_path ~ '^[0-9]+/[0-9a-f]{40}$')`);
    await q.query(`
      ALTER TABLE realms
        ADD COLUMN icon_source char(1) NOT NULL DEFAULT 'G' CHECK (icon_source IN ('G', 'U')),
        ADD COLUMN icon_version integer NOT NULL DEFAULT 1,
        ADD COLUMN logo_source char(1) NOT NULL DEFAULT 'D' CHECK (logo_source IN ('D', 'U')),
        ADD COLUMN logo_version integer NOT NULL DEFAULT 1,
        ADD COLUMN night_logo_source char(1) NOT NULL DEFAULT 'D' CHECK (night_logo_source IN ('D', 'U')),
        ADD COLUMN night_logo_version integer NOT NULL DEFAULT 1`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE users DROP COLUMN avatar_path`);
    await q.query(`
      ALTER TABLE realms DROP COLUMN icon_source, DROP COLUMN icon_version, DROP COLUMN logo_source,
        DROP COLUMN logo_version, DROP COLUMN night_logo_source, DROP COLUMN night_logo_version`);
  }
}
