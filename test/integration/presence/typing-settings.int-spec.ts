import { DataSource } from 'typeorm';
import { TypingSettings } from '../../../src/presence/application/presence.ports.js';
import { TypeOrmTypingSettings } from '../../../src/presence/persistence/typeorm-typing-settings.js';
import { TestApp } from '../../support/test-app.js';

let t: TestApp;
let ds: DataSource;
let settings: TypingSettings;
let realmId: number;
beforeAll(async () => {
  t = await TestApp.start();
  ds = t.app.get(DataSource);
  settings = t.app.get(TypingSettings);
  realmId = (await ds.query(`SELECT realm_id FROM users WHERE id = $1`, [t.owner.id]))[0].realm_id;
});
afterAll(() => t.close());

describe('TypeOrmTypingSettings', () => {
  it('is what the module hands out', () => {
    expect(settings).toBeInstanceOf(TypeOrmTypingSettings);
  });

  it('reads what a sender shares, as the settings hold it', async () => {
    const u = await t.createUser();
    expect(await settings.senderSettings(realmId, u.id)).toEqual({ sendPrivate: true, sendStream: true });
    await t.patch('settings', { as: u, form: { send_private_typing_notifications: false } }).expect(200);
    expect(await settings.senderSettings(realmId, u.id)).toEqual({ sendPrivate: false, sendStream: true });
    await ds.query(`UPDATE users SET send_private_typing_notifications = true, send_stream_typing_notifications = false WHERE id = $1`, [u.id]);
    expect(await settings.senderSettings(realmId, u.id)).toEqual({ sendPrivate: true, sendStream: false });
  });

  it('shares everything for a user it does not find in the organization', async () => {
    const u = await t.createUser();
    await ds.query(`UPDATE users SET send_private_typing_notifications = false, send_stream_typing_notifications = false WHERE id = $1`, [u.id]);
    expect(await settings.senderSettings(realmId + 1000, u.id)).toEqual({ sendPrivate: true, sendStream: true });
    expect(await settings.senderSettings(realmId, 2 ** 30)).toEqual({ sendPrivate: true, sendStream: true });
  });
});
