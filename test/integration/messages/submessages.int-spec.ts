import type { SubmessageRepository } from '../../../src/messages/application/submessage.ports.js';
import { TypeOrmSubmessageRepository } from '../../../src/messages/persistence/typeorm-submessage.repository.js';
import { UnitOfWork } from '../../../src/shared/application/unit-of-work.js';
import { sendToChannel } from '../../support/messages.js';
import { type Account, TestApp } from '../../support/test-app.js';
import { channelWith } from './fixtures.js';

/*
 * TypeOrmSubmessageRepository against PostgreSQL: what POST /submessage reads about a message's
 * submessages, and storing one with its message's has_submessages in one statement.
 */

let t: TestApp;
let uow: UnitOfWork;
let member: Account;

beforeAll(async () => {
  t = await TestApp.start();
  uow = t.app.get(UnitOfWork);
  member = await t.createUser();
  await channelWith(t, 'widgets', [member]);
});
afterAll(() => t.close());

const repo = <T>(work: (r: SubmessageRepository) => Promise<T>) => uow.run((tx) => work(tx.submessages));
const hasSubmessages = async (id: number): Promise<boolean> => (await t.sql(`SELECT has_submessages FROM messages WHERE id = $1`, [id]))[0].has_submessages;

describe('TypeOrmSubmessageRepository', () => {
  it('stores submessages, marking the message on the first', async () => {
    expect(await repo(async (r) => r)).toBeInstanceOf(TypeOrmSubmessageRepository);
    const messageId = await sendToChannel(t, t.owner, 'widgets', 't', 'a widget');
    expect(await hasSubmessages(messageId)).toBe(false);
    const first = await repo((r) => r.add({ messageId, senderId: t.owner.id, msgType: 'widget', content: '{"widget_type":"poll"}' }));
    const second = await repo((r) => r.add({ messageId, senderId: member.id, msgType: 'widget', content: '{"type":"vote"}' }));
    expect(second).toBeGreaterThan(first);
    expect(await hasSubmessages(messageId)).toBe(true);
    expect(await t.sql(`SELECT id, message_id, sender_id, msg_type, content FROM submessages WHERE message_id = $1 ORDER BY id`, [messageId])).toEqual([
      { id: first, message_id: messageId, sender_id: t.owner.id, msg_type: 'widget', content: '{"widget_type":"poll"}' },
      { id: second, message_id: messageId, sender_id: member.id, msg_type: 'widget', content: '{"type":"vote"}' },
    ]);
  });

  it('reads the first widget submessage and whether the sender attached any', async () => {
    const messageId = await sendToChannel(t, t.owner, 'widgets', 't', 'facts');
    expect(await repo((r) => r.facts(messageId, t.owner.id))).toEqual({ firstWidgetContent: null, senderHasSubmessage: false });
    await repo((r) => r.add({ messageId, senderId: member.id, msgType: 'other', content: 'x' }));
    expect(await repo((r) => r.facts(messageId, t.owner.id))).toEqual({ firstWidgetContent: null, senderHasSubmessage: false });
    await repo((r) => r.add({ messageId, senderId: member.id, msgType: 'widget', content: 'first' }));
    await repo((r) => r.add({ messageId, senderId: t.owner.id, msgType: 'widget', content: 'second' }));
    expect(await repo((r) => r.facts(messageId, t.owner.id))).toEqual({ firstWidgetContent: 'first', senderHasSubmessage: true });
    expect(await repo((r) => r.facts(messageId, 2 ** 30))).toEqual({ firstWidgetContent: 'first', senderHasSubmessage: false });
  });
});
