import { DomainError } from '../shared/domain-error.js';

/** An onboarding step as clients see it (Zulip's OneTimeNotice / OneTimeAction). */
export interface OnboardingStep {
  type: 'one_time_notice' | 'one_time_action';
  name: string;
}

/** Zulip's ALL_ONBOARDING_STEPS (zerver/lib/onboarding_steps.py), in its order. */
export const ONBOARDING_STEPS: readonly OnboardingStep[] = [
  ...[
    'visibility_policy_banner',
    'intro_inbox_view_modal',
    'intro_recent_view_modal',
    'first_stream_created_banner',
    'jump_to_conversation_banner',
    'non_interleaved_view_messages_fading',
    'interleaved_view_messages_fading',
    'intro_resolve_topic',
    'navigation_tour_video',
  ].map((name) => ({ type: 'one_time_notice' as const, name })),
  { type: 'one_time_action', name: 'narrow_to_dm_with_welcome_bot_new_user' },
];

/**
 * The steps still to show a user (register's `onboarding_steps` and the `onboarding_steps`
 * event): all but those seen. This server has no navigation tour video (Zulip's
 * NAVIGATION_TOUR_VIDEO_URL unset), so that step counts as seen.
 */
export function nextOnboardingSteps(seen: Iterable<string>): OnboardingStep[] {
  const done = new Set([...seen, 'navigation_tour_video']);
  return ONBOARDING_STEPS.filter((s) => !done.has(s.name)).map((s) => ({ ...s }));
}

/** The step named, or Zulip's error for an unknown one. */
export function knownOnboardingStep(name: string): string {
  if (!ONBOARDING_STEPS.some((s) => s.name === name)) throw new DomainError(`Unknown onboarding_step: ${name}`);
  return name;
}
