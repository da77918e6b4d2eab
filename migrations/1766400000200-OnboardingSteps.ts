import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The onboarding steps each user has seen (Zulip's OnboardingStep): POST /users/me/onboarding_steps. */
export class OnboardingSteps1766400000200 implements MigrationInterface {
  name = 'OnboardingSteps1766400000200';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE onboarding_steps (
        user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        onboarding_step text NOT NULL,
        seen_at timestamptz NOT NULL,
        PRIMARY KEY (user_id, onboarding_step)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE onboarding_steps`);
  }
}
