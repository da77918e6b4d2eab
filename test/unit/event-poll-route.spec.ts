import { basicCredentials, eventJson, plainPoll } from '../../src/app/event-poll-route.js';

describe('the parameters GET /events answers before the Nest pipeline', () => {
  it('takes exactly queue_id and last_event_id, and dont_block, well-formed and once each', () => {
    expect(plainPoll('/api/v1/events?queue_id=q1&last_event_id=-1')).toEqual({ queueId: 'q1', lastEventId: -1, dontBlock: false });
    expect(plainPoll('/api/v1/events?last_event_id=12&dont_block=true&queue_id=a%2Fb')).toEqual({ queueId: 'a/b', lastEventId: 12, dontBlock: true });
    for (const query of [
      '',
      '?queue_id=q',
      '?last_event_id=1',
      '?queue_id=&last_event_id=1',
      '?queue_id=q&last_event_id=01',
      '?queue_id=q&last_event_id=-0',
      '?queue_id=q&last_event_id=1.5',
      '?queue_id=q&last_event_id=%221%22',
      '?queue_id=q&last_event_id=1&dont_block=True',
      '?queue_id=q&last_event_id=1&dont_block=1',
      '?queue_id=q&queue_id=r&last_event_id=1',
      '?queue_id=q&last_event_id=1&client=x',
      `?queue_id=${'q'.repeat(101)}&last_event_id=1`,
      '?queue_id=q%00&last_event_id=1',
    ]) {
      expect(plainPoll(`/api/v1/events${query}`), query).toBeNull();
    }
  });

  it('reads well-formed Basic credentials and leaves every other header to the guard', () => {
    const basic = (s: string) => `Basic ${Buffer.from(s).toString('base64')}`;
    expect(basicCredentials(basic('a@example.com:key'))).toEqual(['a@example.com', 'key']);
    expect(basicCredentials(`  basic   ${Buffer.from('a@example.com:key').toString('base64')}`)).toEqual(['a@example.com', 'key']);
    for (const header of [undefined, '', 'Bearer abc', 'Basic', 'Basic !!!', 'Basic abc', basic('no-colon'), basic('a:b:c'), basic(':key'), `Basic ${Buffer.from([0xff, 0x3a, 0x41]).toString('base64')}`]) {
      expect(basicCredentials(header), String(header)).toBeNull();
    }
  });
});

describe('the answer of a poll', () => {
  it('writes each event as JSON.stringify would, a message event with its message first', () => {
    const message = { id: 1, content: '<p>"hi" & \u2028</p>', reactions: [] };
    const events = [
      { type: 'message', message, flags: ['read'], id: 3, local_message_id: '1.5' },
      { type: 'message', message, flags: [], id: 4 },
      { type: 'heartbeat', id: 5 },
      { type: 'update_message', message: null, id: 6 },
    ];
    for (const e of events) expect(JSON.parse(eventJson(e))).toEqual(e);
    expect(eventJson(events[0]).startsWith(`{"message":${JSON.stringify(message)},"type":"message"`)).toBe(true);
  });
});

