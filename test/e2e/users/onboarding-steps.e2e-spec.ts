import { EventClient } from '../../support/events.js';
import { type Account, expectError, expectSuccess, TestApp } from '../../support/test-app.js';

/** POST /users/me/onboarding_steps and register's `onboarding_steps` (zerver/tests/test_onboarding_steps.py). */
let t: TestApp;
let member: Account;
const ALL = [
  'visibility_policy_banner',
  'intro_inbox_view_modal',
  'intro_recent_view_modal',
  'first_stream_created_banner',
  'jump_to_conversation_banner',
  'non_interleaved_view_messages_fading',
  'interleaved_view_messages_fading',
  'intro_resolve_topic',
  'narrow_to_dm_with_welcome_bot_new_user',
];

beforeAll(async () => {
  t = await TestApp.start();
  member = await t.createUser();
});
afterAll(() => t.close());

const mark = (as: Account, form: Record<string, unknown>) => t.post('users/me/onboarding_steps', { as, form });
const steps = async (as: Account) => (await t.post('register', { as, form: { fetch_event_types: ['onboarding_steps'] } })).body.onboarding_steps as { name: string }[];

describe('onboarding steps', () => {
  it('lists every step not yet seen (no navigation tour video here), then tells the user’s queues what is left', async () => {
    const before = await steps(member);
    expect(before.map((s) => s.name)).toEqual(ALL);
    expect(before[0]).toEqual({ type: 'one_time_notice', name: 'visibility_policy_banner' });
    expect(before.at(-1)).toEqual({ type: 'one_time_action', name: 'narrow_to_dm_with_welcome_bot_new_user' });
    const queue = await EventClient.register(t, member, { event_types: ['onboarding_steps'] });
    expectSuccess(await mark(member, { onboarding_step: 'intro_inbox_view_modal' }));
    const [event] = await queue.ofType('onboarding_steps');
    expect(event.onboarding_steps).toEqual(before.filter((s) => s.name !== 'intro_inbox_view_modal'));
    expectSuccess(await mark(member, { onboarding_step: 'intro_inbox_view_modal' })); // again: nothing changes, the same list
    expect((await queue.ofType('onboarding_steps'))[0].onboarding_steps).toEqual(event.onboarding_steps);
    expect((await steps(member)).map((s) => s.name)).not.toContain('intro_inbox_view_modal');
    // Another user's list is their own.
    expect((await steps(t.owner)).map((s) => s.name)).toContain('intro_inbox_view_modal');
  });

  it('does not take the video reminder this server cannot schedule', async () => {
    const res = await mark(member, { onboarding_step: 'intro_resolve_topic', schedule_navigation_tour_video_reminder_delay: 60 });
    expectSuccess(res, { ignored_parameters_unsupported: ['schedule_navigation_tour_video_reminder_delay'] });
  });

  it.each([
    [{ onboarding_step: 'hotspot' }, 'Unknown onboarding_step: hotspot'],
    [{ onboarding_step: 'x'.repeat(10_000) }, `Unknown onboarding_step: ${'x'.repeat(10_000)}`],
    [{}, "Missing 'onboarding_step' argument"],
  ])('refuses %j', async (form, msg) => {
    const res = await mark(member, form);
    expect(res.status).toBe(400);
    expect(res.body.msg).toBe(msg);
  });

  it('is for humans only, with credentials', async () => {
    const bot = await t.createBot(member, 'onboarder');
    expectError(await mark(bot, { onboarding_step: 'intro_resolve_topic' }), 400, 'This endpoint does not accept bot requests.');
    expectError(await mark(null as never, { onboarding_step: 'intro_resolve_topic' }), 401, 'Not logged in: API authentication or user session required', 'UNAUTHORIZED');
    expect(await t.sql(`SELECT count(*)::int AS n FROM onboarding_steps WHERE user_id = $1`, [bot.id])).toEqual([{ n: 0 }]);
  });
});
