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

const domains = async (as: Account = t.owner) => (await t.get('realm/domains', { as })).body.domains;
const add = (domain: string, allow_subdomains = false, as: Account = t.owner) =>
  t.post('realm/domains', { as, form: { domain, allow_subdomains } });
const realmSetting = async (name: string, as: Account = t.owner) =>
  (await t.post('register', { as, form: { fetch_event_types: ['realm'] } })).body[`realm_${name}`];

async function clear(): Promise<void> {
  for (const as of [t.owner, otherOwner]) {
    for (const d of await domains(as)) expectSuccess(await t.delete(`realm/domains/${d.domain}`, { as }));
  }
}

describe('allowed email domains', () => {
  beforeEach(clear);

  it('adds domains trimmed and lower-cased, and lists them to everyone', async () => {
    const res = await add('  Acme.COM ', true);
    expect(res.body).toEqual({ result: 'success', msg: '', new_domain: [expect.any(Number), 'acme.com'] });
    expectSuccess(await add('x-x.y.3.z'));
    const expected = [
      { domain: 'acme.com', allow_subdomains: true },
      { domain: 'x-x.y.3.z', allow_subdomains: false },
    ];
    for (const as of [t.owner, admin, moderator, member, guest, bot]) expect(await domains(as)).toEqual(expected);
    expect(await domains(otherOwner)).toEqual([]);
    const state = await t.post('register', { form: { fetch_event_types: ['realm_domains'] } });
    expect(state.body.realm_domains).toEqual(expected);
  });

  it('leaves changes to owners, refused before any parameter', async () => {
    expectSuccess(await add('acme.com'));
    for (const as of [admin, moderator, member, guest, bot]) {
      expectError(await t.post('realm/domains', { as }), 400, 'Must be an organization owner', 'UNAUTHORIZED_PRINCIPAL');
      expectError(await t.patch('realm/domains/acme.com', { as }), 400, 'Must be an organization owner', 'UNAUTHORIZED_PRINCIPAL');
      expectError(await t.delete('realm/domains/acme.com', { as }), 400, 'Must be an organization owner', 'UNAUTHORIZED_PRINCIPAL');
    }
    expect(await domains()).toEqual([{ domain: 'acme.com', allow_subdomains: false }]);
  });

  it('reads allow_subdomains before domain, as a JSON boolean', async () => {
    expectError(await t.post('realm/domains', { form: {} }), 400, "Missing 'allow_subdomains' argument", 'REQUEST_VARIABLE_MISSING', {
      var_name: 'allow_subdomains',
    });
    expectError(await t.post('realm/domains', { form: { allow_subdomains: false } }), 400, "Missing 'domain' argument", 'REQUEST_VARIABLE_MISSING', {
      var_name: 'domain',
    });
    expectError(await t.post('realm/domains', { form: { domain: 'a.com', allow_subdomains: 'yes' } }), 400, 'allow_subdomains is not valid JSON');
    expectError(await t.post('realm/domains', { form: { domain: 'a.com', allow_subdomains: 1 } }), 400, 'allow_subdomains is not a boolean');
  });

  it('refuses invalid domains with the reason', async () => {
    const cases: [string, string][] = [
      ['', "Domain can't be empty."],
      ['test', 'Domain must have at least one dot (.)'],
      [`${'a'.repeat(255)}.com`, 'Domain is too long'],
      ['t.', 'Domain cannot start or end with a dot (.)'],
      ['.com', 'Domain cannot start or end with a dot (.)'],
      ['test...com', "Consecutive '.' are not allowed."],
      ['-test.com', "Subdomains cannot start or end with a '-'."],
      ['test-.com', "Subdomains cannot start or end with a '-'."],
      ['test.-domain.com', "Subdomains cannot start or end with a '-'."],
      ['test_domain.com', "Domain can only have letters, numbers, '.' and '-'s."],
    ];
    for (const [domain, reason] of cases) expectError(await add(domain), 400, `Invalid domain: ${reason}`);
    expect(await domains()).toEqual([]);
  });

  it('refuses a domain the organization already has, not one another organization has', async () => {
    expectSuccess(await add('acme.com'));
    expectError(await add('ACME.com '), 400, 'The domain acme.com is already a part of your organization.');
    expectSuccess(await add('acme.com', false, otherOwner));
  });

  it('lets only one of two concurrent requests add the same domain', async () => {
    const results = await Promise.all([add('race.com'), add('race.com'), add('race.com')]);
    expect(results.filter((r) => r.status === 200).length).toBe(1);
    for (const r of results.filter((r) => r.status !== 200)) {
      expectError(r, 400, 'The domain race.com is already a part of your organization.');
    }
    expect(await domains()).toEqual([{ domain: 'race.com', allow_subdomains: false }]);
  });

  it('changes allow_subdomains of the domain named exactly in the path', async () => {
    expectSuccess(await add('acme.com'));
    expectSuccess(await t.patch('realm/domains/acme.com', { form: { allow_subdomains: true } }));
    expect(await domains()).toEqual([{ domain: 'acme.com', allow_subdomains: true }]);
    expectError(await t.patch('realm/domains/ACME.com', { form: { allow_subdomains: false } }), 400, 'No entry found for domain ACME.com.');
    expectError(await t.patch('realm/domains/nope.com', { form: { allow_subdomains: false } }), 400, 'No entry found for domain nope.com.');
    expectError(await t.patch('realm/domains/acme.com', { form: {} }), 400, "Missing 'allow_subdomains' argument", 'REQUEST_VARIABLE_MISSING', {
      var_name: 'allow_subdomains',
    });
    // Another organization's owner does not see it.
    expectError(await t.patch('realm/domains/acme.com', { as: otherOwner, form: { allow_subdomains: false } }), 400, 'No entry found for domain acme.com.');
    expectError(await t.delete('realm/domains/acme.com', { as: otherOwner }), 400, 'No entry found for domain acme.com.');
    expect(await domains()).toEqual([{ domain: 'acme.com', allow_subdomains: true }]);
  });

  it('deletes; removing the last domain switches emails_restricted_to_domains off', async () => {
    expectSuccess(await add('acme.com'));
    expectSuccess(await add('beta.org'));
    expectSuccess(await t.patch('realm', { form: { emails_restricted_to_domains: true } }));
    expectSuccess(await t.delete('realm/domains/acme.com'));
    expect(await realmSetting('emails_restricted_to_domains')).toBe(true);
    expectError(await t.delete('realm/domains/acme.com'), 400, 'No entry found for domain acme.com.');
    expectSuccess(await t.delete('realm/domains/beta.org'));
    expect(await domains()).toEqual([]);
    expect(await realmSetting('emails_restricted_to_domains')).toBe(false);
  });

  it('restricts new users to the allowed domains', async () => {
    expectSuccess(await add('acme.com', true));
    expectSuccess(await t.patch('realm', { form: { emails_restricted_to_domains: true } }));
    const create = (email: string) => t.post('users', { form: { email, password: 'Pw-1-correct-horse-battery', full_name: 'New' } });
    expectError(await create('someone@else.org'), 400, "Email 'someone@else.org' not allowed in this organization");
    expectSuccess(await create('someone@sub.acme.com'));
    expectSuccess(await t.patch('realm/domains/acme.com', { form: { allow_subdomains: false } }));
    expectError(await create('other@sub.acme.com'), 400, "Email 'other@sub.acme.com' not allowed in this organization");
    expectSuccess(await t.delete('realm/domains/acme.com'));
    expectSuccess(await create('other@sub.acme.com'));
  });
});
