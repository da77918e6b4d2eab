import { type Actor, knownOnboardingStep, nextOnboardingSteps } from '@app/domain/users';
import { Injectable } from '@nestjs/common';
import { Clock } from '../../shared/application/clock.js';
import type { ClientEvent } from '../../shared/application/client-event.js';
import { UnitOfWork } from '../../shared/application/unit-of-work.js';

/** The onboarding steps a user has seen, in the transaction. */
export abstract class OnboardingStepRepository {
  /** Marks the step seen (again: nothing changes). */
  abstract markSeen(userId: number, step: string, at: Date): Promise<void>;
  abstract seen(userId: number): Promise<string[]>;
}

declare module '../../shared/application/unit-of-work.js' {
  interface Tx {
    readonly onboardingSteps: OnboardingStepRepository;
  }
}

/** Zulip's OnboardingStepsEvent: the steps still to show, to the user's own queues. */
const onboardingStepsEvent = (actor: Actor, seen: readonly string[]): ClientEvent => ({
  realmId: actor.realmId,
  event: { type: 'onboarding_steps', onboarding_steps: nextOnboardingSteps(seen) },
  userIds: [actor.userId],
});

/** POST /users/me/onboarding_steps (Zulip's zerver/views/onboarding_steps.py). */
@Injectable()
export class OnboardingStepsService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  async markSeen(actor: Actor, step: string): Promise<void> {
    knownOnboardingStep(step);
    await this.uow.run(async (tx) => {
      await tx.onboardingSteps.markSeen(actor.userId, step, this.clock.now());
      tx.afterCommit([onboardingStepsEvent(actor, await tx.onboardingSteps.seen(actor.userId))]);
    });
  }
}
