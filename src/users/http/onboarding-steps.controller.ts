import type { Actor } from '@app/domain/users';
import { Controller } from '@nestjs/common';
import { CurrentActor, Require } from '../../shared/auth/decorators.js';
import { PlainParam, str, ZulipParams } from '../../shared/http/params/index.js';
import { ApiPost } from '../../shared/http/routes.js';
import { OnboardingStepsService } from '../application/onboarding-steps.service.js';

/**
 * POST /users/me/onboarding_steps: `schedule_navigation_tour_video_reminder_delay` is not taken
 * (this server has no navigation tour video), so it comes back in ignored_parameters_unsupported.
 */
export class MarkOnboardingStepDto {
  @PlainParam(str()) onboarding_step: string;
}

@Controller('api/v1/users/me/onboarding_steps')
export class OnboardingStepsController {
  constructor(private readonly steps: OnboardingStepsService) {}

  /** Humans only, as Zulip's human_users_only. */
  @ApiPost()
  @Require('human')
  async markSeen(@CurrentActor() actor: Actor, @ZulipParams() p: MarkOnboardingStepDto) {
    await this.steps.markSeen(actor, p.onboarding_step);
    return {};
  }
}
