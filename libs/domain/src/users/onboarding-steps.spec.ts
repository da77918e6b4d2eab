import { knownOnboardingStep, nextOnboardingSteps, ONBOARDING_STEPS } from './onboarding-steps.js';

describe('onboarding steps', () => {
  it('lists every step but the seen ones and the navigation tour video, in Zulip’s order', () => {
    const all = nextOnboardingSteps([]);
    expect(all.map((s) => s.name)).toEqual(ONBOARDING_STEPS.map((s) => s.name).filter((n) => n !== 'navigation_tour_video'));
    expect(all.at(-1)).toEqual({ type: 'one_time_action', name: 'narrow_to_dm_with_welcome_bot_new_user' });
    expect(nextOnboardingSteps(['visibility_policy_banner', 'intro_resolve_topic']).map((s) => s.name)).not.toContain('visibility_policy_banner');
    expect(nextOnboardingSteps(ONBOARDING_STEPS.map((s) => s.name))).toEqual([]);
  });

  it('knows only Zulip’s steps', () => {
    expect(knownOnboardingStep('intro_inbox_view_modal')).toBe('intro_inbox_view_modal');
    expect(() => knownOnboardingStep('hotspot')).toThrow('Unknown onboarding_step: hotspot');
    expect(() => knownOnboardingStep('')).toThrow('Unknown onboarding_step: ');
  });
});
