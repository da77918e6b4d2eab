import { expectError, expectSuccess, TestApp } from '../../support/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await TestApp.start();
});
afterAll(() => t.close());

describe('one parameter mechanism for every encoding', () => {
  const params = { fetch_event_types: ['realm_domains', 'realm_user_groups'], client_gravatar: false, bogus: 'x' };

  it('gives the same answer form-encoded, multipart and in the query string', async () => {
    const form = await t.post('register', { form: params });
    const multipart = await t.post('register', { multipart: params });
    const query = await t.post('register', { query: params });
    expectSuccess(form);
    const same = { ...form.body, queue_id: expect.any(String) };
    expect(multipart.body).toEqual(same);
    expect(query.body).toEqual(same);
    expect(form.body.ignored_parameters_unsupported).toEqual(['bogus']);
  });

  it('reads PATCH and DELETE parameters from the body or the query string', async () => {
    const u = await t.createUser();
    expectSuccess(await t.patch(`users/${u.id}`, { form: { full_name: 'Via Body' } }));
    expect((await t.get(`users/${u.id}`)).body.user.full_name).toBe('Via Body');
    expectSuccess(await t.patch(`users/${u.id}`, { query: { full_name: 'Via Query' } }));
    expect((await t.get(`users/${u.id}`)).body.user.full_name).toBe('Via Query');
    expectSuccess(await t.patch(`users/${u.id}`, { multipart: { full_name: 'Via Multipart' } }));
    expect((await t.get(`users/${u.id}`)).body.user.full_name).toBe('Via Multipart');
  });
});

describe('ignored_parameters_unsupported', () => {
  it('lists unknown parameters of body and query, sorted, only on success', async () => {
    const res = await t.post('register', { form: { zzz: 1, fetch_event_types: ['realm_domains'] }, query: { aaa: 2 } });
    expectSuccess(res);
    expect(res.body.ignored_parameters_unsupported).toEqual(['aaa', 'zzz']);
    const failed = await t.post('register', { form: { zzz: 1, client_gravatar: 'yes' } });
    expectError(failed, 400, 'client_gravatar is not valid JSON');
  });
  it('is absent when every parameter was read, and ignores repeated path ids', async () => {
    const res = await t.get(`users/${t.owner.id}`, { query: { client_gravatar: true, user_id: t.owner.id } });
    expectSuccess(res);
    expect(res.body).not.toHaveProperty('ignored_parameters_unsupported');
  });
  it('lists everything for endpoints without parameters', async () => {
    const res = await t.get('users/me', { query: { apply_markdown: true } });
    expect(res.body.ignored_parameters_unsupported).toEqual(['apply_markdown']);
  });
});

describe('typed parameters', () => {
  it.each([
    [{ client_gravatar: 'True' }, 'client_gravatar is not valid JSON'],
    [{ client_gravatar: '1' }, 'client_gravatar is not a boolean'],
    [{ client_gravatar: '"true"' }, 'client_gravatar is not a boolean'],
  ])('rejects %j', async (query, msg) => {
    expectError(await t.get('users', { query }), 400, msg);
  });
  it('rejects integers written as floats or strings', async () => {
    const u = await t.createUser();
    expectError(await t.patch(`users/${u.id}`, { form: { role: '400.0' } }), 400, 'role is not an integer');
    expectError(await t.patch(`users/${u.id}`, { form: { role: '"400"' } }), 400, 'role is not an integer');
    expectError(await t.patch(`users/${u.id}`, { form: { role: '401' } }), 400, 'Invalid role');
  });
  it('names the position of a bad element', async () => {
    const res = await t.post('user_groups/create', { form: { name: 'g', description: '', members: '[1, "2"]' } });
    expectError(res, 400, 'members[1] is not an integer');
  });
  it('never answers a malformed JSON body with a 500', async () => {
    const res = await t.http
      .post('/api/v1/register')
      .auth(t.owner.email, t.owner.apiKey)
      .set('Content-Type', 'application/json')
      .send('{"broken');
    expectError(res, 400, 'Malformed JSON');
  });
});
