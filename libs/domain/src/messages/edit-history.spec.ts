import { messageState } from '../../test/builders.js';
import { EditHistoryVisibility } from '../realm/realm-settings.js';
import { editSnapshots, messageHistory, visibleSnapshots } from './edit-history.js';

const diff = (before: string, after: string) => `diff(${before}→${after})`;
const SENT = Math.floor(messageState().dateSent.getTime() / 1000);

/** Sent as "one" in topic "a"; content edited at +10 (by 60); topic moved at +20 (by 70); both at +30 (by 60). Stored newest first. */
const edited = messageState({
  content: 'four',
  renderedContent: '<p>four</p>',
  topic: 'c',
  editHistory: [
    { user_id: 60, timestamp: SENT + 30, prev_content: 'two', prev_rendered_content: '<p>two</p>', prev_topic: 'b', topic: 'c' },
    { user_id: 70, timestamp: SENT + 20, prev_topic: 'a', topic: 'b', prev_stream: 8, stream: 9 },
    { user_id: 60, timestamp: SENT + 10, prev_content: 'one', prev_rendered_content: '<p>one</p>' },
  ],
});

describe('edit history snapshots (Zulip fill_edit_history_entries)', () => {
  it('walks the edits newest first: the state after each, what changed, the original last', () => {
    expect(editSnapshots(edited, false, diff)).toEqual([
      {
        content: 'four',
        rendered_content: '<p>four</p>',
        timestamp: SENT + 30,
        topic: 'c',
        user_id: 60,
        prev_topic: 'b',
        prev_content: 'two',
        prev_rendered_content: '<p>two</p>',
        content_html_diff: 'diff(<p>two</p>→<p>four</p>)',
      },
      { content: 'two', rendered_content: '<p>two</p>', timestamp: SENT + 20, topic: 'b', user_id: 70, prev_topic: 'a', prev_stream: 8, stream: 9 },
      {
        content: 'two',
        rendered_content: '<p>two</p>',
        timestamp: SENT + 10,
        topic: 'a',
        user_id: 60,
        prev_content: 'one',
        prev_rendered_content: '<p>one</p>',
        content_html_diff: 'diff(<p>one</p>→<p>two</p>)',
      },
      { content: 'one', rendered_content: '<p>one</p>', timestamp: SENT, topic: 'a', user_id: 60 },
    ]);
  });

  it('shows the empty topic as "general chat" unless allowed, and a direct message’s topic as ""', () => {
    const m = messageState({ topic: 'named', editHistory: [{ user_id: 60, timestamp: SENT + 5, prev_topic: '', topic: 'named' }] });
    expect(editSnapshots(m, false, diff).map((s) => [s.topic, s.prev_topic])).toEqual([
      ['named', 'general chat'],
      ['general chat', undefined],
    ]);
    expect(editSnapshots(m, true, diff).map((s) => s.topic)).toEqual(['named', '']);
    const dm = messageState({ channelId: null, topic: '', editHistory: [{ user_id: 60, timestamp: SENT + 5, prev_content: 'x', prev_rendered_content: '<p>x</p>' }] });
    expect(editSnapshots(dm, false, diff).map((s) => s.topic)).toEqual(['', '']);
  });
});

describe('visible history (Zulip visible_edit_history_for_message)', () => {
  const snapshots = editSnapshots(edited, false, diff);

  it('shows everything under "all"', () => {
    expect(visibleSnapshots(EditHistoryVisibility.all, snapshots)).toEqual(snapshots);
  });

  it('under "moves" drops content-only edits, and the content fields of edits that also moved the topic', () => {
    const visible = visibleSnapshots(EditHistoryVisibility.moves, snapshots);
    expect(visible.map((s) => s.timestamp)).toEqual([SENT + 30, SENT + 20, SENT]);
    expect(visible[0]).not.toHaveProperty('prev_content');
    expect(visible[0]).not.toHaveProperty('prev_rendered_content');
    expect(visible[0]).not.toHaveProperty('content_html_diff');
    expect(visible[0]).toMatchObject({ content: 'four', prev_topic: 'b' });
  });

  it('drops a content edit that only moved the channel too (Zulip keys on prev_topic)', () => {
    const m = messageState({ editHistory: [{ user_id: 60, timestamp: SENT + 5, prev_content: 'x', prev_rendered_content: '<p>x</p>', prev_stream: 8, stream: 9 }] });
    expect(visibleSnapshots(EditHistoryVisibility.moves, editSnapshots(m, false, diff)).map((s) => s.timestamp)).toEqual([SENT]);
  });

  it('gives message_history oldest first', () => {
    expect(messageHistory(edited, EditHistoryVisibility.all, false, diff).map((s) => s.timestamp)).toEqual([SENT, SENT + 10, SENT + 20, SENT + 30]);
  });
});
