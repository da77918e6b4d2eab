import { DataSource } from 'typeorm';
import { UnitOfWork } from '../../../src/shared/application/unit-of-work.js';
import { TypeOrmOnboardingStepRepository } from '../../../src/users/persistence/typeorm-onboarding-step.repository.js';
import { TestApp } from '../../support/test-app.js';

let t: TestApp;
let uow: UnitOfWork;
let ds: DataSource;
beforeAll(async () => {
  t = await TestApp.start();
  uow = t.app.get(UnitOfWork);
  ds = t.app.get(DataSource);
});
afterAll(() => t.close());

describe('TypeOrmOnboardingStepRepository', () => {
  it('is the adapter of its port', async () => {
    await uow.run(async (tx) => expect(tx.onboardingSteps).toBeInstanceOf(TypeOrmOnboardingStepRepository));
  });

  it('marks a step seen once (the first time kept) and lists one user’s steps', async () => {
    const [u, other] = [await t.createUser(), await t.createUser()];
    const first = new Date('2025-02-03T04:05:06Z');
    await uow.run(async (tx) => {
      await tx.onboardingSteps.markSeen(u.id, 'intro_resolve_topic', first);
      await tx.onboardingSteps.markSeen(u.id, 'intro_resolve_topic', new Date('2025-03-01T00:00:00Z'));
      await tx.onboardingSteps.markSeen(u.id, 'navigation_tour_video', first);
    });
    expect((await uow.run((tx) => tx.onboardingSteps.seen(u.id))).sort()).toEqual(['intro_resolve_topic', 'navigation_tour_video']);
    expect(await uow.run((tx) => tx.onboardingSteps.seen(other.id))).toEqual([]);
    expect(await ds.query(`SELECT seen_at FROM onboarding_steps WHERE user_id = $1 AND onboarding_step = 'intro_resolve_topic'`, [u.id])).toEqual([{ seen_at: first }]);
  });
});
