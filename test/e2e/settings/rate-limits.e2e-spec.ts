import { expectError, TestApp } from '../../support/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await TestApp.start({ RATE_LIMITING: 'true' });
});
afterAll(() => t.close());

describe('PATCH /settings with rate limits on', () => {
  it('counts wrong old passwords against the login limit', async () => {
    {
      const wrong = () => t.patch('settings', { form: { old_password: 'wrong', new_password: 'A-brand-new-passphrase-9' } });
      for (let i = 0; i < 5; i++) expectError(await wrong(), 400, 'Wrong password!');
      const res = await wrong();
      expect(res.status).toBe(400);
      expect(res.body.msg).toMatch(/^You're making too many attempts! Try again in \d+ seconds\.$/);
    }
  });
});
