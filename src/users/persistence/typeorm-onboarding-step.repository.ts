import type { EntityManager } from 'typeorm';
import { OnboardingStepRepository } from '../application/onboarding-steps.service.js';

export class TypeOrmOnboardingStepRepository extends OnboardingStepRepository {
  constructor(private readonly em: EntityManager) {
    super();
  }

  async markSeen(userId: number, step: string, at: Date): Promise<void> {
    await this.em.query(`INSERT INTO onboarding_steps (user_id, onboarding_step, seen_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`, [userId, step, at]);
  }

  async seen(userId: number): Promise<string[]> {
    const rows: { onboarding_step: string }[] = await this.em.query(`SELECT onboarding_step FROM onboarding_steps WHERE user_id = $1`, [userId]);
    return rows.map((r) => r.onboarding_step);
  }
}
