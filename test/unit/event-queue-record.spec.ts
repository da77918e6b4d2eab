import { JournalWindow } from '../../src/events/application/journal-window.js';
import { absorb, acknowledge, type JournalRow, type QueueOptions, type QueueRecord } from '../../src/events/application/queue-record.js';

const options: QueueOptions = {
  eventTypes: null,
  narrow: [],
  applyMarkdown: true,
  clientGravatar: false,
  allPublicStreams: false,
  slimPresence: false,
  readsPublicChannels: true,
  capabilities: {
    bulkMessageDeletion: true,
    linkifierUrlTemplate: true,
    emptyTopicName: true,
    archivedChannels: true,
    streamTypingNotifications: true,
    simplifiedPresenceEvents: true,
  },
  lifespanSecs: 0,
};

const queue = (over: Partial<QueueRecord> = {}): QueueRecord => ({
  id: 'q',
  userId: 7,
  realmId: 1,
  options,
  snapshot: null,
  boundary: 100,
  nextEventId: 0,
  newestDiscarded: -1,
  pending: [],
  version: 0,
  ...over,
});

const row = (xid: number, n: number, userIds = [7], realmId = 1): JournalRow => ({ xid, event: { realmId, userIds, event: { type: 'custom', n } } });

describe('an event queue record', () => {
  it('takes in the rows of its user and organization from its boundary on, numbering them in journal order', () => {
    const q = queue();
    const changed = absorb(q, [row(99, 0), row(100, 1), row(101, 2, [8]), row(102, 3, [7], 2), row(103, 4), row(110, 5)], 110);
    expect(changed).toBe(true);
    expect(q.pending).toEqual([
      { type: 'custom', n: 1, id: 0 },
      { type: 'custom', n: 4, id: 1 },
    ]);
    expect(q.boundary).toBe(110);
    // The same rows again change nothing: the boundary has passed them.
    expect(absorb(q, [row(103, 4)], 110)).toBe(false);
  });

  it('leaves out the transactions its registration snapshot saw committed, and forgets the snapshot past its xmax', () => {
    // xmin 100, xmax 105, 102 in progress: 100, 101, 103, 104 were committed; 102 and 105+ were not.
    const q = queue({ snapshot: '100:105:102' });
    absorb(q, [row(100, 0), row(101, 1), row(102, 2), row(103, 3)], 104);
    expect(q.pending.map((e) => e.n)).toEqual([2]);
    expect(q.snapshot).toBe('100:105:102');
    absorb(q, [row(104, 4), row(105, 5)], 106);
    expect(q.pending.map((e) => e.n)).toEqual([2, 5]);
    expect(q.snapshot).toBeNull();
  });

  it('checks last_event_id as Zulip does and drops what it acknowledges', () => {
    const q = queue();
    absorb(q, [row(100, 0), row(101, 1), row(102, 2)], 103);
    expect(acknowledge(q, -1)).toBe(false);
    expect(acknowledge(q, 0)).toBe(true);
    expect(q.pending.map((e) => e.id)).toEqual([1, 2]);
    expect(() => acknowledge(q, -1)).toThrow('An event newer than -1 has already been pruned!');
    expect(() => acknowledge(q, 5)).toThrow('Event 5 was not in this queue');
    expect(acknowledge(q, 2)).toBe(true);
    expect(q.pending).toEqual([]);
  });
});

describe('the journal window', () => {
  it('answers from its start on, and not before it', () => {
    const w = new JournalWindow({ maxRows: 100, maxAgeMs: 60_000 });
    expect(w.rowsFrom(10)).toBeNull();
    w.append(10, 10, [], 0);
    w.append(10, 20, [row(12, 0), row(15, 1)], 0);
    w.append(20, 30, [row(25, 2)], 0);
    expect(w.rowsFrom(9)).toBeNull();
    expect(w.rowsFrom(15)).toEqual({ rows: [row(15, 1), row(25, 2)], end: 30 });
    expect(w.rowsFrom(30)).toEqual({ rows: [], end: 30 });
    expect(w.generation).toBe(1);
  });

  it('drops whole passes beyond its row and age limits, and starts anew after a gap', () => {
    const w = new JournalWindow({ maxRows: 2, maxAgeMs: 1_000 });
    w.append(10, 20, [row(12, 0)], 0);
    w.append(20, 30, [row(25, 1), row(26, 2)], 500);
    expect(w.start).toBe(20);
    expect(w.rowsFrom(15)).toBeNull();
    w.append(30, 40, [], 2_000);
    expect(w.start).toBe(30);
    expect(w.rowsFrom(30)).toEqual({ rows: [], end: 40 });
    w.append(50, 60, [row(55, 3)], 2_000);
    expect(w.generation).toBe(2);
    expect(w.start).toBe(50);
  });

  it('shares one message object per view among the queues it reaches, without the journal-only fields', () => {
    const message = { id: 5, type: 'stream', content: '<p>hi</p>', __raw: 'hi', __topic: 't', avatar_url: 'https://x/a.png', subject: 't' };
    const ce = { realmId: 1, userIds: [7, 8, 9], event: { type: 'message', message } };
    const rows: JournalRow[] = [{ xid: 100, event: ce }];
    const [html1, html2, raw] = [queue({ id: 'a' }), queue({ id: 'b', userId: 8 }), queue({ id: 'c', userId: 9, options: { ...options, applyMarkdown: false } })];
    for (const q of [html1, html2, raw]) absorb(q, rows, 101);
    const shown = (q: QueueRecord) => q.pending[0].message as Record<string, unknown>;
    expect(shown(html1)).toBe(shown(html2));
    expect(shown(raw)).not.toBe(shown(html1));
    expect(shown(html1)).toEqual({ id: 5, type: 'stream', content: '<p>hi</p>', avatar_url: 'https://x/a.png', subject: 't' });
    expect(shown(raw)).toMatchObject({ content: 'hi', content_type: 'text/x-markdown' });
    expect(message).toHaveProperty('__raw'); // the journal row is left as it was
  });
});
