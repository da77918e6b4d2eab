import { type Account, expectError, expectSuccess, TestApp } from '../../support/test-app.js';

let t: TestApp;
let admin: Account;
let moderator: Account;
let member: Account;
let guest: Account;
let bot: Account;
let otherOwner: Account;
beforeAll(async () => {
  t = await TestApp.start();
  ({ admin, moderator, member, guest, bot, otherOwner } = await t.createRoleAccounts());
});
afterAll(() => t.close());

const PYTHON = { name: 'Python playground', pygments_language: 'Python', url_template: 'https://python.example.com{code}' };
const add = (form: Record<string, unknown>, as: Account = admin) => t.post('realm/playgrounds', { as, form });
async function addOk(form: Record<string, unknown>, as: Account = admin): Promise<number> {
  const res = await add(form, as);
  expectSuccess(res);
  return res.body.id;
}
const playgrounds = async (as: Account = t.owner) =>
  (await t.post('register', { as, form: { fetch_event_types: ['realm_playgrounds'] } })).body.realm_playgrounds;

async function clear(): Promise<void> {
  for (const as of [t.owner, otherOwner]) {
    for (const p of await playgrounds(as)) expectSuccess(await t.delete(`realm/playgrounds/${p.id}`, { as }));
  }
}

describe('code playgrounds', () => {
  beforeEach(clear);

  it('creates playgrounds and lists them through POST /register', async () => {
    const res = await add(PYTHON);
    expect(res.body).toEqual({ result: 'success', msg: '', id: expect.any(Number) });
    const second = await addOk({ name: ' Python playground 2 ', pygments_language: ' python ', url_template: ' https://python2.example.com/?q={code} ' });
    expect(await playgrounds()).toEqual([
      { id: res.body.id, name: 'Python playground', pygments_language: 'Python', url_template: 'https://python.example.com{code}' },
      { id: second, name: 'Python playground 2', pygments_language: 'python', url_template: 'https://python2.example.com/?q={code}' },
    ]);
    for (const as of [member, guest, bot]) expect((await playgrounds(as)).length).toBe(2);
    expect(await playgrounds(otherOwner)).toEqual([]);
  });

  it('refuses non-administrators before reading any parameter', async () => {
    const id = await addOk(PYTHON);
    for (const as of [moderator, member, guest, bot]) {
      expectError(await t.post('realm/playgrounds', { as }), 400, 'Must be an organization administrator', 'UNAUTHORIZED_PRINCIPAL');
      expectError(await t.delete(`realm/playgrounds/${id}`, { as }), 400, 'Must be an organization administrator', 'UNAUTHORIZED_PRINCIPAL');
    }
    await addOk({ ...PYTHON, name: 'by owner' }, t.owner);
    expect((await playgrounds()).length).toBe(2);
  });

  it('requires the three parameters', async () => {
    expectError(await add({}), 400, "Missing 'name' argument", 'REQUEST_VARIABLE_MISSING', { var_name: 'name' });
    expectError(await add({ name: 'x' }), 400, "Missing 'pygments_language' argument", 'REQUEST_VARIABLE_MISSING', {
      var_name: 'pygments_language',
    });
    expectError(await add({ name: 'x', pygments_language: 'Python' }), 400, "Missing 'url_template' argument", 'REQUEST_VARIABLE_MISSING', {
      var_name: 'url_template',
    });
  });

  it('checks the language while reading the parameters', async () => {
    expectError(await add({ ...PYTHON, pygments_language: 'a$b$c' }), 400, 'Invalid characters in pygments language');
    expectError(await add({ ...PYTHON, pygments_language: 'p'.repeat(41) }), 400, 'pygments_language is too long (limit: 40 characters)');
    expectError(await add({ ...PYTHON, pygments_language: 'Klingon' }), 400, "Invalid pygments language 'Klingon'");
    // Before the later url_template parameter is missed.
    expectError(await add({ name: 'x', pygments_language: 'a$b' }), 400, 'Invalid characters in pygments language');
    for (const lang of ['JavaScript', 'js', 'C++', 'objective-c', 'text', 'Rust']) await addOk({ ...PYTHON, pygments_language: lang });
  });

  it('validates the object like Zulip: blank fields, template, the code variable', async () => {
    expectError(await add({ ...PYTHON, name: '  ' }), 400, 'This field cannot be blank.', 'BAD_REQUEST', {
      errors: { name: ['This field cannot be blank.'] },
    });
    expectError(await add({ ...PYTHON, pygments_language: '' }), 400, 'This field cannot be blank.', 'BAD_REQUEST', {
      errors: { pygments_language: ['This field cannot be blank.'] },
    });
    expectError(await add({ name: '', pygments_language: '', url_template: '' }), 400, 'This field cannot be blank.', 'BAD_REQUEST', {
      errors: {
        url_template: ['This field cannot be blank.'],
        name: ['This field cannot be blank.'],
        pygments_language: ['This field cannot be blank.'],
        __all__: ['Missing the required variable "code" in the URL template'],
      },
    });
    expectError(await add({ ...PYTHON, url_template: 'https://template.com?test={test' }), 400, 'Invalid URL template.', 'BAD_REQUEST', {
      errors: { url_template: ['Invalid URL template.'] },
    });
    expectError(
      await add({ ...PYTHON, url_template: 'https://template.com{?test}' }),
      400,
      'Missing the required variable "code" in the URL template',
      'BAD_REQUEST',
      { errors: { __all__: ['Missing the required variable "code" in the URL template'] } },
    );
    expectError(
      await add({ ...PYTHON, url_template: 'https://template.com{?test,code}' }),
      400,
      '"code" should be the only variable present in the URL template',
      'BAD_REQUEST',
      { errors: { __all__: ['"code" should be the only variable present in the URL template'] } },
    );
    expect(await playgrounds()).toEqual([]);
  });

  it('refuses the same language and name twice in one organization only', async () => {
    await addOk(PYTHON);
    const clash = 'Realm playground with this Realm, Pygments language and Name already exists.';
    expectError(await add({ ...PYTHON, url_template: 'https://other{code}' }), 400, clash, 'BAD_REQUEST', { errors: { __all__: [clash] } });
    await addOk({ ...PYTHON, name: 'Python playground 2' });
    await addOk({ ...PYTHON, pygments_language: 'py' });
    await addOk(PYTHON, otherOwner);
  });

  it('lets only one of concurrent requests add the same language and name', async () => {
    const results = await Promise.all([add(PYTHON), add(PYTHON), add(PYTHON)]);
    expect(results.filter((r) => r.status === 200).length).toBe(1);
    const clash = 'Realm playground with this Realm, Pygments language and Name already exists.';
    for (const r of results.filter((r) => r.status !== 200)) expectError(r, 400, clash, 'BAD_REQUEST', { errors: { __all__: [clash] } });
    expect((await playgrounds()).length).toBe(1);
  });

  it('deletes, answering Invalid playground for unknown ids and other organizations’ playgrounds', async () => {
    const id = await addOk(PYTHON);
    const theirs = await addOk(PYTHON, otherOwner);
    expectError(await t.delete(`realm/playgrounds/${id + 1000}`), 400, 'Invalid playground');
    expectError(await t.delete(`realm/playgrounds/${theirs}`), 400, 'Invalid playground');
    expectSuccess(await t.delete(`realm/playgrounds/${id}`));
    expect(await playgrounds()).toEqual([]);
    expectError(await t.delete(`realm/playgrounds/${id}`), 400, 'Invalid playground');
    expect((await playgrounds(otherOwner)).map((p: { id: number }) => p.id)).toEqual([theirs]);
  });
});
