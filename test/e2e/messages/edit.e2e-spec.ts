import { createHash } from 'node:crypto';
import { createChannels, systemGroups } from '../../support/channels.js';
import { fetchNarrow, message, sendDirect, sendToChannel } from '../../support/messages.js';
import { type Account, expectError, expectSuccess, TestApp } from '../../support/test-app.js';

let t: TestApp;
let alice: Account;
let bob: Account;
let moderator: Account;
let guest: Account;
beforeAll(async () => {
  t = await TestApp.start();
  alice = await t.createUser({ fullName: 'Alice' });
  bob = await t.createUser({ fullName: 'Bob' });
  moderator = await t.createUser({ role: 300, fullName: 'Mod' });
  guest = await t.createUser({ role: 600, fullName: 'Guest' });
  await createChannels(t, ['general', 'archive', 'other']);
  await t.post('users/me/subscriptions', {
    form: { subscriptions: [{ name: 'general' }, { name: 'archive' }, { name: 'other' }], principals: [alice.id, bob.id, moderator.id, guest.id] },
  });
});
afterAll(() => t.close());

const edit = (id: number, form: Record<string, unknown>, as: Account | undefined = alice) => t.patch(`messages/${id}`, { as, form });
const sha = (s: string) => createHash('sha256').update(s).digest('hex');

describe('editing content', () => {
  it('lets the sender edit within the limit (plus 20 s grace), not after', async () => {
    const id = await sendToChannel(t, alice, 'general', 'edits', 'first draft');
    expectSuccess(await edit(id, { content: 'second draft' }), { detached_uploads: [] });
    const m = await message(t, bob, id);
    expect(m.content).toBe('second draft');
    expect(m.last_edit_timestamp).toEqual(expect.any(Number));
    expect(m.edit_history[0]).toMatchObject({ user_id: alice.id, prev_content: 'first draft' });
    t.clock.advance(600 + 20);
    expectSuccess(await edit(id, { content: 'just in time' }));
    t.clock.advance(1);
    expectError(await edit(id, { content: 'too late' }), 400, 'The time limit for editing this message has passed');
  });

  it('is for the sender only, administrators included', async () => {
    const id = await sendToChannel(t, alice, 'general', 'edits', 'mine');
    expectError(await edit(id, { content: 'theirs' }, bob), 400, "You don't have permission to edit this message");
    expectError(await edit(id, { content: 'theirs' }, t.owner), 400, "You don't have permission to edit this message");
  });

  it('turns blank content into (deleted) and checks the payload', async () => {
    const id = await sendToChannel(t, alice, 'general', 'edits', 'soon gone');
    expectSuccess(await edit(id, { content: '   ' }));
    expect((await message(t, alice, id)).content).toBe('(deleted)');
    expectError(await edit(id, {}), 400, 'Nothing to change');
    expectError(await edit(id, { topic: 'edits' }), 400, 'Nothing to change');
    expectError(await edit(id, { content: 'x', propagate_mode: 'change_all' }), 400, 'Invalid propagate_mode without topic edit');
    expectError(await edit(id, { content: 'x', propagate_mode: 'change_most' }), 400, 'Invalid propagate_mode');
    expectError(await edit(id, { content: 'x', stream_id: 1 }), 400, 'Cannot change message content while changing channel');
    expectError(await edit(999999, { content: 'x' }), 400, 'Invalid message(s)');
    const dm = await sendDirect(t, alice, [bob.id], 'direct');
    expectError(await edit(dm, { topic: 'x' }), 400, 'Direct messages cannot have topics.');
    expectError(await edit(dm, { stream_id: 1 }), 400, 'Direct messages cannot be moved to channels.');
  });

  it('refuses a stale prev_content_sha256 and changes nothing', async () => {
    const id = await sendToChannel(t, alice, 'general', 'edits', 'original');
    expectError(
      await edit(id, { content: 'clobber', prev_content_sha256: sha('something else') }),
      400,
      "'prev_content_sha256' value does not match the expected value.",
      'EXPECTATION_MISMATCH',
      { field_name: 'prev_content_sha256' },
    );
    expect((await message(t, alice, id)).content).toBe('original');
    expectSuccess(await edit(id, { content: 'updated', prev_content_sha256: sha('original') }));
  });

  it('lets exactly one of two racing edits with the same prev_content_sha256 win', async () => {
    const id = await sendToChannel(t, alice, 'general', 'edits', 'race base');
    const results = await Promise.all(['A', 'B'].map((v) => edit(id, { content: `winner ${v}`, prev_content_sha256: sha('race base') })));
    expect(results.map((r) => r.status).sort()).toEqual([200, 400]);
    const winner = results.find((r) => r.status === 200)!;
    expect(winner.body.result).toBe('success');
    expect((await message(t, alice, id)).content).toMatch(/^winner [AB]$/);
  });

  it('never loses a content edit racing a topic move', async () => {
    const id = await sendToChannel(t, alice, 'general', 'racing', 'content v1');
    await Promise.all([edit(id, { content: 'content v2' }), edit(id, { topic: 'raced', propagate_mode: 'change_all' }, bob)]);
    const m = await message(t, alice, id);
    expect(m.content).toBe('content v2');
    expect(m.subject).toBe('raced');
    expect(m.edit_history).toHaveLength(2);
  });
});

describe('moving topics', () => {
  it('renames a whole topic and posts the notices', async () => {
    const a = await sendToChannel(t, alice, 'general', 'old name', 'one');
    const b = await sendToChannel(t, bob, 'general', 'old name', 'two');
    expectSuccess(await edit(b, { topic: 'new name', propagate_mode: 'change_all', send_notification_to_old_thread: true }, bob));
    expect((await message(t, alice, a)).subject).toBe('new name');
    expect((await message(t, alice, a)).last_moved_timestamp).toEqual(expect.any(Number));
    const moved = await fetchNarrow(t, bob, [['channel', 'general'], ['topic', 'new name']], { apply_markdown: false });
    expect(moved.map((m) => m.content)).toEqual(['one', 'two', `This topic was moved here from #**general>old name** by @_**Bob|${bob.id}**.`]);
    const old = await fetchNarrow(t, bob, [['channel', 'general'], ['topic', 'old name']], { apply_markdown: false });
    expect(old.map((m) => m.content)).toEqual([`This topic was moved to #**general>new name** by @_**Bob|${bob.id}**.`]);
    expect(old[0].flags).toContain('read'); // the mover's own copy
  });

  it('moves one message or the later ones, with counts in the notices', async () => {
    const ids = [];
    for (const c of ['m1', 'm2', 'm3']) ids.push(await sendToChannel(t, alice, 'general', 'partial', c));
    expectSuccess(await edit(ids[1], { topic: 'partial later', propagate_mode: 'change_later', send_notification_to_old_thread: true }));
    const left = await fetchNarrow(t, alice, [['channel', 'general'], ['topic', 'partial']], { apply_markdown: false });
    expect(left.map((m) => m.content)).toEqual(['m1', `2 messages were moved from this topic to #**general>partial later** by @_**Alice|${alice.id}**.`]);
    expectSuccess(await edit(ids[0], { topic: 'partial one' }));
    const one = await fetchNarrow(t, alice, [['channel', 'general'], ['topic', 'partial one']], { apply_markdown: false });
    expect(one[1].content).toMatch(/^\[A message\]\(#narrow\/channel\/\d+-general\/topic\/partial\.20one\/near\/\d+\) was moved here from #\*\*general>partial\*\* by @_\*\*Alice\|\d+\*\*\.$/);
  });

  it('refuses a change_all move past the limit with the three counts; change_later from the first allowed works', async () => {
    const old = await sendToChannel(t, alice, 'general', 'aging', 'ancient');
    t.clock.advance(7 * 86400 + 21);
    const recent1 = await sendToChannel(t, alice, 'general', 'aging', 'recent 1');
    const recent2 = await sendToChannel(t, bob, 'general', 'aging', 'recent 2');
    const res = await edit(recent2, { topic: 'aged', propagate_mode: 'change_all' }, bob);
    expectError(res, 400, 'You only have permission to move the 2/3 most recent messages in this topic.', 'MOVE_MESSAGES_TIME_LIMIT_EXCEEDED', {
      first_message_id_allowed_to_move: recent1,
      total_messages_in_topic: 3,
      total_messages_allowed_to_move: 2,
    });
    expectSuccess(await edit(recent1, { topic: 'aged', propagate_mode: 'change_later' }, bob));
    expect((await message(t, bob, old)).subject).toBe('aging');
    expect((await message(t, bob, recent2)).subject).toBe('aged');
    expectError(await edit(old, { topic: 'renamed' }, bob), 400, "The time limit for editing this message's topic has passed.");
    expectSuccess(await edit(old, { topic: 'renamed', propagate_mode: 'change_all' }, moderator)); // moderators are exempt
  });

  it('resolves and unresolves a topic with a notice, and a quick undo removes the notice', async () => {
    const id = await sendToChannel(t, alice, 'general', 'bug 42', 'it broke');
    expectSuccess(await edit(id, { topic: '✔ bug 42', propagate_mode: 'change_all' }, bob));
    const resolved = await fetchNarrow(t, bob, [['channel', 'general'], ['topic', '✔ bug 42']], { apply_markdown: false });
    expect(resolved.map((m) => m.content)).toEqual(['it broke', `@_**Bob|${bob.id}** has marked this topic as resolved.`]);
    expect((await message(t, bob, id)).last_moved_timestamp).toBeUndefined();
    expect(await fetchNarrow(t, bob, [['channel', 'general'], ['is', 'resolved'], ['topic', '✔ bug 42']])).toHaveLength(2);
    // Unresolving within a minute deletes the notice instead of adding another.
    expectSuccess(await edit(id, { topic: 'bug 42', propagate_mode: 'change_all' }, bob));
    const back = await fetchNarrow(t, bob, [['channel', 'general'], ['topic', 'bug 42']], { apply_markdown: false });
    expect(back.map((m) => m.content)).toEqual(['it broke']);
    t.clock.advance(120);
    expectSuccess(await edit(id, { topic: '✔ bug 42', propagate_mode: 'change_all' }, bob));
    t.clock.advance(120);
    expectSuccess(await edit(id, { topic: 'bug 42', propagate_mode: 'change_all' }, bob));
    const again = await fetchNarrow(t, bob, [['channel', 'general'], ['topic', 'bug 42']], { apply_markdown: false });
    expect(again.at(-1)!.content).toBe(`@_**Bob|${bob.id}** has marked this topic as unresolved.`);
    expectError(await edit(id, { topic: '✔ general chat' }), 400, 'General chat cannot be marked as resolved');
  });

  it('uses the move permissions of the organization and the channel', async () => {
    const groups = await systemGroups(t);
    const id = await sendToChannel(t, alice, 'other', 'perm', 'x');
    const c = await import('pg');
    const client = new c.default.Client({ connectionString: t.databaseUrl });
    await client.connect();
    try {
      await t.sql(`UPDATE realm_group_settings SET group_id = $1 WHERE setting IN ('can_move_messages_between_topics_group', 'can_resolve_topics_group')`, [
        groups['role:moderators'],
      ]);
      expectError(await edit(id, { topic: 'renamed' }, alice), 400, "You don't have permission to edit this message");
      expectError(await edit(id, { topic: '✔ perm' }, alice), 400, "You don't have permission to resolve topics in this channel.");
      expectSuccess(await edit(id, { topic: 'renamed' }, moderator));
    } finally {
      await t.sql(`UPDATE realm_group_settings SET group_id = $1 WHERE setting IN ('can_move_messages_between_topics_group', 'can_resolve_topics_group')`, [
        groups['role:everyone'],
      ]);
      await client.end();
    }
  });
});

describe('moving to another channel', () => {
  it('moves messages, posts notices on both sides, and checks permissions', async () => {
    const id = await sendToChannel(t, alice, 'general', 'wrong place', 'belongs elsewhere');
    const archiveId = (await t.get('get_stream_id', { query: { stream: 'archive' } })).body.stream_id;
    expectError(await edit(id, { stream_id: archiveId }, guest), 400, "You don't have permission to move this message");
    expectSuccess(await edit(id, { stream_id: archiveId, propagate_mode: 'change_all', send_notification_to_old_thread: true }, alice));
    const m = await message(t, alice, id);
    expect(m).toMatchObject({ stream_id: archiveId, display_recipient: 'archive', subject: 'wrong place' });
    expect(m.edit_history[0]).toMatchObject({ prev_stream: expect.any(Number), stream: archiveId });
    const there = await fetchNarrow(t, alice, [['channel', 'archive'], ['topic', 'wrong place']], { apply_markdown: false });
    expect(there.at(-1)!.content).toBe(`This topic was moved here from #**general>wrong place** by @_**Alice|${alice.id}**.`);
    expectError(await edit(id, { stream_id: 424242 }, alice), 400, 'Invalid channel ID');
    t.clock.advance(7 * 86400 + 21);
    const generalId = (await t.get('get_stream_id', { query: { stream: 'general' } })).body.stream_id;
    expectError(await edit(id, { stream_id: generalId }, alice), 400, "The time limit for editing this message's channel has passed");
    expectSuccess(await edit(id, { stream_id: generalId }, t.owner));
  });
});

describe('edit history', () => {
  it('lists the versions oldest first', async () => {
    const id = await sendToChannel(t, alice, 'general', 'history', 'v1');
    await edit(id, { content: 'v2' });
    await edit(id, { topic: 'history moved' }, bob);
    const res = await t.get(`messages/${id}/history`, { as: bob });
    expectSuccess(res);
    expect(res.body.message_history).toEqual([
      expect.objectContaining({ content: 'v1', topic: 'history', user_id: alice.id }),
      expect.objectContaining({ content: 'v2', prev_content: 'v1', topic: 'history', user_id: alice.id }),
      expect.objectContaining({ content: 'v2', topic: 'history moved', prev_topic: 'history', user_id: bob.id }),
    ]);
  });
});

describe('DELETE /messages/{id}', () => {
  it('lets senders delete their own within the limit, administrators anything', async () => {
    const own = await sendToChannel(t, alice, 'general', 'deleting', 'oops');
    expectError(await t.delete(`messages/${own}`, { as: bob }), 400, "You don't have permission to delete this message");
    expectSuccess(await t.delete(`messages/${own}`, { as: alice }));
    expectError(await t.get(`messages/${own}`, { as: alice }), 400, 'Invalid message(s)');
    const late = await sendToChannel(t, alice, 'general', 'deleting', 'old');
    t.clock.advance(601);
    expectError(await t.delete(`messages/${late}`, { as: alice }), 400, 'The time limit for deleting this message has passed');
    expectSuccess(await t.delete(`messages/${late}`, { as: t.owner }));
    expectError(await t.delete(`messages/${late}`, { as: t.owner }), 400, 'Invalid message(s)');
  });
});
