import { DataSource } from 'typeorm';
import { FakePushRelay } from './fake-push-relay.js';
import { type Account, TestApp } from './test-app.js';

export const RELAY_SERVER_UUID = '6cde5f7a-1f7e-4978-9716-49f69ebfc9fe';
export const RELAY_SERVER_KEY = 'relay-api-key-of-this-server';
/** The Basic credentials this server sends the relay. */
export const RELAY_AUTHORIZATION = `Basic ${Buffer.from(`${RELAY_SERVER_UUID}:${RELAY_SERVER_KEY}`).toString('base64')}`;

export interface PushSuite {
  t: TestApp;
  relay: FakePushRelay;
  db: DataSource;
  member: Account;
  other: Account;
  guest: Account;
  bot: Account;
  otherOwner: Account;
  close(): Promise<void>;
}

/**
 * A server with a (fake) push relay configured, answering at once and retrying registrations
 * only when told, and the accounts the push tests use: two members, a guest, the first
 * member's bot and the owner of a second organization; the clock set to `now` first if given.
 */
export async function startPushSuite(now?: Date): Promise<PushSuite> {
  const relay = await FakePushRelay.create();
  const t = await TestApp.start({
    PUSH_BOUNCER_URL: relay.url,
    PUSH_BOUNCER_SERVER_UUID: RELAY_SERVER_UUID,
    PUSH_BOUNCER_API_KEY: RELAY_SERVER_KEY,
    PUSH_BOUNCER_TIMEOUT_MS: '300',
    PUSH_REGISTRATION_RETRY_INTERVAL_MS: '0',
  });
  if (now) t.clock.current = now;
  const member = await t.createUser({ fullName: 'Member' });
  return {
    t,
    relay,
    db: t.app.get(DataSource),
    member,
    other: await t.createUser({ fullName: 'Other' }),
    guest: await t.createUser({ role: 600, fullName: 'Guest' }),
    bot: await t.createBot(member, 'pushbot'),
    otherOwner: await t.createOrganization('other'),
    close: async () => {
      await t.close();
      await relay.stop();
    },
  };
}
