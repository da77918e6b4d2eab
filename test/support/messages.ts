import type { Account, TestApp } from './test-app.js';

export async function sendToChannel(t: TestApp, as: Account | undefined, channel: string | number, topic: string, content: string, extra: Record<string, unknown> = {}) {
  const res = await t.post('messages', { as, form: { type: 'stream', to: channel, topic, content, ...extra } });
  if (res.status !== 200) throw new Error(`send failed: ${JSON.stringify(res.body)}`);
  return res.body.id as number;
}

export async function sendDirect(t: TestApp, as: Account | undefined, to: number[], content: string) {
  const res = await t.post('messages', { as, form: { type: 'direct', to, content } });
  if (res.status !== 200) throw new Error(`send failed: ${JSON.stringify(res.body)}`);
  return res.body.id as number;
}

export async function message(t: TestApp, as: Account | undefined, id: number) {
  const res = await t.get(`messages/${id}`, { as, query: { apply_markdown: false } });
  return res.body.message;
}

export async function fetchNarrow(t: TestApp, as: Account | undefined, narrow: unknown[], extra: Record<string, unknown> = {}) {
  const res = await t.get('messages', { as, query: { anchor: 'oldest', num_before: 0, num_after: 1000, narrow, ...extra } });
  if (res.status !== 200) throw new Error(`fetch failed: ${JSON.stringify(res.body)}`);
  return res.body.messages as { id: number; flags: string[]; subject: string; content: string }[];
}
