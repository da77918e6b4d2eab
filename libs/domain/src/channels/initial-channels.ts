/** A channel every new organization starts with. */
export interface InitialChannel {
  readonly name: string;
  readonly description: string;
}

/**
 * Zulip's do_create_realm: three public channels, all of them default channels, created in this
 * order; `general` receives the organization's announcements there.
 */
export const INITIAL_CHANNELS: readonly InitialChannel[] = [
  { name: 'Zulip', description: 'Questions and discussion about using Zulip.' },
  { name: 'sandbox', description: 'Experiment with Zulip here. :test_tube:' },
  { name: 'general', description: 'For team-wide conversations' },
];
