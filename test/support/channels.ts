import type { Account, TestApp } from './test-app.js';

/** Creates channels by subscribing `as` (the owner by default); returns their ids by name. */
export async function createChannels(
  t: TestApp,
  names: string[],
  o: { as?: Account; form?: Record<string, unknown> } = {},
): Promise<Record<string, number>> {
  const res = await t.post('users/me/subscriptions', {
    as: o.as,
    form: { subscriptions: names.map((name) => ({ name })), ...o.form },
  });
  if (res.status !== 200) throw new Error(`createChannels failed: ${JSON.stringify(res.body)}`);
  return channelIds(t, names);
}

export async function channelIds(t: TestApp, names: string[]): Promise<Record<string, number>> {
  const all = await t.get('streams', { query: { include_all: true, exclude_archived: false } });
  const out: Record<string, number> = {};
  for (const n of names) out[n] = all.body.streams.find((s: { name: string }) => s.name.toLowerCase() === n.toLowerCase()).stream_id;
  return out;
}

export async function subscription(t: TestApp, as: Account, channelId: number) {
  const res = await t.get('users/me/subscriptions', { as });
  return res.body.subscriptions.find((s: { stream_id: number }) => s.stream_id === channelId);
}

export async function systemGroups(t: TestApp): Promise<Record<string, number>> {
  const groups = (await t.get('user_groups')).body.user_groups;
  return Object.fromEntries(groups.map((g: { name: string; id: number }) => [g.name, g.id]));
}
