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

const ISSUES = { pattern: '#(?P<id>[0-9]+)', url_template: 'https://github.com/zulip/zulip/issues/{id}' };
const list = async (as: Account = t.owner) => (await t.get('realm/linkifiers', { as })).body.linkifiers;
const add = (form: Record<string, unknown>, as: Account = admin) => t.post('realm/filters', { as, form });
async function addOk(form: Record<string, unknown>, as: Account = admin): Promise<number> {
  const res = await add(form, as);
  expectSuccess(res);
  return res.body.id;
}
const register = (capabilities?: Record<string, boolean>) =>
  t.post('register', {
    form: {
      fetch_event_types: ['realm_linkifiers', 'realm_filters'],
      ...(capabilities ? { client_capabilities: capabilities } : {}),
    },
  });

async function clear(): Promise<void> {
  for (const as of [t.owner, otherOwner]) {
    for (const l of await list(as)) expectSuccess(await t.delete(`realm/filters/${l.id}`, { as }));
  }
}

describe('linkifiers: create and list', () => {
  beforeEach(clear);

  it('creates a linkifier and lists it with every field', async () => {
    const res = await add(ISSUES);
    expect(res.body).toEqual({ result: 'success', msg: '', id: expect.any(Number) });
    expect(await list()).toEqual([
      {
        pattern: '#(?P<id>[0-9]+)',
        url_template: 'https://github.com/zulip/zulip/issues/{id}',
        id: res.body.id,
        example_input: null,
        reverse_template: null,
        alternative_url_templates: [],
      },
    ]);
  });

  it('stores the optional fields trimmed, empty ones as null', async () => {
    const id = await addOk({
      pattern: '  (?P<org>[a-z]+)/(?P<repo>[a-z]+)#(?P<id>[0-9]+) ',
      url_template: ' https://github.com/{org}/{repo}/issues/{id} ',
      example_input: ' zulip/zulip#123 ',
      reverse_template: '{org}/{repo}#{id}',
      alternative_url_templates: ['https://github.com/{org}/{repo}/pull/{id}', ' https://gh/{org}/{repo}/{id} '],
    });
    const second = await addOk({ pattern: 'ZUL-(?P<id>\\d+)', url_template: 'https://z/{id}', example_input: '  ', reverse_template: '' });
    expect(await list()).toEqual([
      {
        pattern: '(?P<org>[a-z]+)/(?P<repo>[a-z]+)#(?P<id>[0-9]+)',
        url_template: 'https://github.com/{org}/{repo}/issues/{id}',
        id,
        example_input: 'zulip/zulip#123',
        reverse_template: '{org}/{repo}#{id}',
        alternative_url_templates: ['https://github.com/{org}/{repo}/pull/{id}', 'https://gh/{org}/{repo}/{id}'],
      },
      expect.objectContaining({ id: second, example_input: null, reverse_template: null }),
    ]);
  });

  it('accepts every URL template of the spec', async () => {
    await addOk({ pattern: 'A(?P<id>\\d+)', url_template: '$not_a_url$/{id}' });
    await addOk({ pattern: 'ZUL-URL-(?P<id>\\d+)', url_template: 'https://example.com/%ba/{id}' });
    await addOk({
      pattern: 'FOO_(?P<id>[a-f]{5});(?P<zone>[a-f]);(?P<domain>[a-z]+);(?P<location>[a-z]+);(?P<name>[a-z]{2,8});(?P<chapter>[0-9]{2,3});(?P<fragment>[a-z]{2,8})',
      url_template: 'https://zone_{zone}{.domain}.net/ticket{/location}{/id}{?name,chapter}{#fragment:5}',
    });
    await addOk({ pattern: 'no groups', url_template: '$not_a_url$' });
    expect((await list()).length).toBe(4);
  });

  it('lets every user read the list, and only that organization’s', async () => {
    const id = await addOk(ISSUES);
    for (const as of [t.owner, admin, moderator, member, guest, bot]) {
      expect((await list(as)).map((l: { id: number }) => l.id)).toEqual([id]);
    }
    expect(await list(otherOwner)).toEqual([]);
  });
});

describe('linkifiers: who may change them', () => {
  beforeEach(clear);

  it('refuses non-administrators before reading any parameter', async () => {
    const id = await addOk(ISSUES);
    for (const as of [moderator, member, guest, bot]) {
      const denied = (res: Awaited<ReturnType<typeof add>>) =>
        expectError(res, 400, 'Must be an organization administrator', 'UNAUTHORIZED_PRINCIPAL');
      denied(await t.post('realm/filters', { as }));
      denied(await t.patch(`realm/filters/${id}`, { as }));
      denied(await t.delete(`realm/filters/${id}`, { as }));
      denied(await t.patch('realm/linkifiers', { as }));
    }
    expect((await list()).length).toBe(1);
  });

  it('lets owners and administrators create, change, reorder and delete', async () => {
    const a = await addOk(ISSUES, t.owner);
    const b = await addOk({ pattern: 'ZUL-(?P<id>\\d+)', url_template: 'https://z/{id}' }, admin);
    expectSuccess(await t.patch('realm/linkifiers', { as: t.owner, form: { ordered_linkifier_ids: [b, a] } }));
    expectSuccess(await t.patch(`realm/filters/${a}`, { as: admin, form: { pattern: '#(?P<id>\\d+)', url_template: 'https://x/{id}' } }));
    expectSuccess(await t.delete(`realm/filters/${b}`, { as: t.owner }));
    expect((await list()).map((l: { id: number }) => l.id)).toEqual([a]);
  });
});

describe('linkifiers: validation', () => {
  beforeAll(clear);

  it('requires pattern and url_template', async () => {
    expectError(await add({}), 400, "Missing 'pattern' argument", 'REQUEST_VARIABLE_MISSING', { var_name: 'pattern' });
    expectError(await add({ pattern: 'x' }), 400, "Missing 'url_template' argument", 'REQUEST_VARIABLE_MISSING', {
      var_name: 'url_template',
    });
    expectError(await add({ ...ISSUES, alternative_url_templates: 'x' }), 400, 'alternative_url_templates is not valid JSON');
    expectError(await add({ ...ISSUES, alternative_url_templates: [1] }), 400, 'alternative_url_templates[0] is not a string');
  });

  it('refuses blank fields with Django’s text and lists every problem in errors', async () => {
    expectError(await add({ pattern: '', url_template: 'https://realm.com/my_realm_filter/{id}' }), 400, 'This field cannot be blank.', 'BAD_REQUEST', {
      errors: {
        pattern: ['This field cannot be blank.'],
        __all__: ["Group 'id' in URL template is not present in linkifier pattern."],
      },
    });
    expectError(await add({ pattern: '#(?P<id>\\d+)', url_template: '   ' }), 400, 'This field cannot be blank.', 'BAD_REQUEST', {
      errors: {
        url_template: ['This field cannot be blank.'],
        __all__: ["Group 'id' in linkifier pattern is not present in URL template."],
      },
    });
  });

  it('gives RE2’s error texts for bad patterns', async () => {
    expectError(await add({ ...ISSUES, pattern: '(foo' }), 400, 'Bad regular expression: missing ): (foo', 'BAD_REQUEST', {
      errors: { __all__: ['Bad regular expression: missing ): (foo'] },
    });
    expectError(
      await add({ ...ISSUES, pattern: 'ZUL-(?P<id>\\d????)' }),
      400,
      'Bad regular expression: bad repetition operator: ????',
      'BAD_REQUEST',
      { errors: { __all__: ['Bad regular expression: bad repetition operator: ????'] } },
    );
    // JavaScript-only syntax is not RE2.
    expect((await add({ ...ISSUES, pattern: '#(?<id>\\d+)(?=x)' })).body.msg).toBe('Bad regular expression: invalid perl operator: (?=');
  });

  it('refuses templates that are not RFC 6570', async () => {
    for (const url_template of ['{id', 'https://example.com/{{}', 'https://example.com/{//foo}', 'https://example.com/{bar++}', 'https://x/{id} y']) {
      expectError(await add({ pattern: '#(?P<id>\\d+)', url_template }), 400, 'Invalid URL template.', 'BAD_REQUEST', {
        errors: { url_template: ['Invalid URL template.'] },
      });
    }
    expectError(await add({ ...ISSUES, alternative_url_templates: ['https://ok/{id}', '{id'] }), 400, 'Invalid URL template.', 'BAD_REQUEST', {
      errors: { alternative_url_templates: ['Invalid URL template.'] },
    });
  });

  it('compares the pattern’s groups with the template’s variables', async () => {
    const msg = async (pattern: string, url_template: string) => (await add({ pattern, url_template })).body.msg;
    expect(await msg('ZUL-(?P<id>\\d+)', '$fgfg')).toBe("Group 'id' in linkifier pattern is not present in URL template.");
    expect(await msg('ZUL-(?P<id>\\d+)', 'https://realm.com/my_realm_filter/{hello}')).toBe(
      "Group 'hello' in URL template is not present in linkifier pattern.",
    );
    expect(await msg('ZUL-(?P<id>\\d+)-(?P<hello>\\d+)-(?P<world>\\d+)', 'https://realm.com/{hello}')).toBe(
      "Group 'id' in linkifier pattern is not present in URL template.",
    );
  });

  it('checks the example input and the auto-conversion field', async () => {
    const msg = async (form: Record<string, unknown>) => (await add({ ...ISSUES, ...form })).body.msg;
    expectError(await add({ ...ISSUES, reverse_template: '#{id}' }), 400, 'Example text is required when auto-conversion field is set.');
    expect(await msg({ example_input: 'no number' })).toBe('Example input does not match the linkifier pattern.');
    expect(await msg({ example_input: 'see #12', reverse_template: '#{id}' })).toBe('Example text does not match auto-conversion field.');
    expect(await msg({ example_input: '#12', reverse_template: '#{id' })).toBe("Invalid auto-conversion field: missing '}' character.");
    expect(await msg({ example_input: '#12', reverse_template: '#{}' })).toBe('Invalid auto-conversion field: empty field name.');
    expect(await msg({ example_input: '#12', reverse_template: '#{num}' })).toBe(
      "Group 'num' in auto-conversion field is not present in linkifier pattern.",
    );
    const id = await addOk({ pattern: '\\{(?P<id>[0-9]+)\\}', url_template: 'https://x/{id}', example_input: '{12}', reverse_template: '{{{id}}}' });
    expectSuccess(await t.delete(`realm/filters/${id}`));
  });

  it('refuses a pattern the organization already has, but not one another organization has', async () => {
    const id = await addOk(ISSUES);
    expectError(await add({ ...ISSUES, url_template: 'https://other/{id}' }), 400, 'Realm filter with this Realm and Pattern already exists.', 'BAD_REQUEST', {
      errors: { __all__: ['Realm filter with this Realm and Pattern already exists.'] },
    });
    // Trimmed before the comparison.
    expect((await add({ ...ISSUES, pattern: ` ${ISSUES.pattern} ` })).body.msg).toBe('Realm filter with this Realm and Pattern already exists.');
    expectSuccess(await add(ISSUES, otherOwner));
    expectSuccess(await t.delete(`realm/filters/${id}`));
  });
});

describe('linkifiers: concurrent creation', () => {
  beforeEach(clear);

  it('lets only one of concurrent requests add the same pattern', async () => {
    const results = await Promise.all([add(ISSUES), add(ISSUES), add(ISSUES)]);
    expect(results.filter((r) => r.status === 200).length).toBe(1);
    for (const r of results.filter((r) => r.status !== 200)) {
      expectError(r, 400, 'Realm filter with this Realm and Pattern already exists.', 'BAD_REQUEST', {
        errors: { __all__: ['Realm filter with this Realm and Pattern already exists.'] },
      });
    }
    expect((await list()).length).toBe(1);
  });
});

describe('linkifiers: update and delete', () => {
  beforeEach(clear);

  it('replaces pattern and template, keeps optional fields that are not sent, clears them with ""', async () => {
    const id = await addOk({ ...ISSUES, example_input: '#1', reverse_template: '#{id}', alternative_url_templates: ['https://a/{id}'] });
    expectSuccess(await t.patch(`realm/filters/${id}`, { form: { pattern: '#(?P<id>[0-9]+)', url_template: 'https://new/{id}' } }));
    expect(await list()).toEqual([
      expect.objectContaining({ id, url_template: 'https://new/{id}', example_input: '#1', reverse_template: '#{id}', alternative_url_templates: ['https://a/{id}'] }),
    ]);
    expectSuccess(
      await t.patch(`realm/filters/${id}`, {
        form: { ...ISSUES, example_input: '', reverse_template: '', alternative_url_templates: [] },
      }),
    );
    expect(await list()).toEqual([expect.objectContaining({ id, example_input: null, reverse_template: null, alternative_url_templates: [] })]);
    // Clearing only the example input while the reverse template stays is refused.
    expectSuccess(await t.patch(`realm/filters/${id}`, { form: { ...ISSUES, example_input: '#5', reverse_template: '#{id}' } }));
    expectError(
      await t.patch(`realm/filters/${id}`, { form: { ...ISSUES, example_input: '' } }),
      400,
      'Example text is required when auto-conversion field is set.',
    );
  });

  it('validates like creation, lets a linkifier keep its own pattern, and refuses another’s', async () => {
    const a = await addOk(ISSUES);
    const b = await addOk({ pattern: 'ZUL-(?P<id>\\d+)', url_template: 'https://z/{id}' });
    expectSuccess(await t.patch(`realm/filters/${a}`, { form: ISSUES }));
    expectError(await t.patch(`realm/filters/${b}`, { form: ISSUES }), 400, 'Realm filter with this Realm and Pattern already exists.', 'BAD_REQUEST', {
      errors: { __all__: ['Realm filter with this Realm and Pattern already exists.'] },
    });
    expect((await t.patch(`realm/filters/${a}`, { form: { ...ISSUES, pattern: '(foo' } })).body.msg).toBe('Bad regular expression: missing ): (foo');
    expect((await t.patch(`realm/filters/${a}`, { form: { ...ISSUES, url_template: '{id' } })).body.msg).toBe('Invalid URL template.');
    expectError(await t.patch(`realm/filters/${a}`, { form: { pattern: 'x' } }), 400, "Missing 'url_template' argument", 'REQUEST_VARIABLE_MISSING', {
      var_name: 'url_template',
    });
  });

  it('answers Linkifier not found for unknown ids and other organizations’ linkifiers', async () => {
    const theirs = (await add(ISSUES, otherOwner)).body.id;
    for (const id of [999999, theirs]) {
      expectError(await t.patch(`realm/filters/${id}`, { form: ISSUES }), 400, 'Linkifier not found.');
      expectError(await t.delete(`realm/filters/${id}`), 400, 'Linkifier not found.');
    }
    // Parameters are read before the lookup.
    expectError(await t.patch('realm/filters/999999', { form: {} }), 400, "Missing 'pattern' argument", 'REQUEST_VARIABLE_MISSING', {
      var_name: 'pattern',
    });
    expect((await list(otherOwner)).map((l: { id: number }) => l.id)).toContain(theirs);
    expectSuccess(await t.delete(`realm/filters/${theirs}`, { as: otherOwner }));
  });

  it('deletes', async () => {
    const id = await addOk(ISSUES);
    expectSuccess(await t.delete(`realm/filters/${id}`));
    expect(await list()).toEqual([]);
    expectError(await t.delete(`realm/filters/${id}`), 400, 'Linkifier not found.');
  });
});

describe('linkifiers: order', () => {
  beforeEach(clear);

  it('appends new linkifiers and applies a new order', async () => {
    const a = await addOk({ pattern: '1#(?P<id>[123])', url_template: 'https://filter.com/foo/{id}' });
    const b = await addOk({ pattern: '2#(?P<id>[123])', url_template: 'https://filter.com/bar/{id}' });
    const c = await addOk({ pattern: '3#(?P<id>[123])', url_template: 'https://filter.com/baz/{id}' });
    const ids = async () => (await list()).map((l: { id: number }) => l.id);
    expect(await ids()).toEqual([a, b, c]);
    expectSuccess(await t.patch('realm/linkifiers', { form: { ordered_linkifier_ids: [c, a, b] } }));
    expect(await ids()).toEqual([c, a, b]);
    const d = await addOk({ pattern: '4#(?P<id>[123])', url_template: 'https://filter.com/qux/{id}' });
    expect(await ids()).toEqual([c, a, b, d]);
    // Updating keeps the place.
    expectSuccess(await t.patch(`realm/filters/${a}`, { form: { pattern: '1#(?P<id>[0-9])', url_template: 'https://filter.com/foo/{id}' } }));
    expect(await ids()).toEqual([c, a, b, d]);
  });

  it('needs every linkifier exactly once', async () => {
    const a = await addOk({ pattern: '1#(?P<id>[123])', url_template: 'https://filter.com/foo/{id}' });
    const b = await addOk({ pattern: '2#(?P<id>[123])', url_template: 'https://filter.com/bar/{id}' });
    const reorder = (ids: unknown) => t.patch('realm/linkifiers', { form: { ordered_linkifier_ids: ids } });
    expectError(await reorder([a, a, b]), 400, 'The ordered list must not contain duplicated linkifiers');
    expectError(await reorder([a]), 400, 'The ordered list must enumerate all existing linkifiers exactly once');
    expectError(await reorder([a, b, 999999]), 400, 'The ordered list must enumerate all existing linkifiers exactly once');
    expectError(await reorder([]), 400, 'The ordered list must enumerate all existing linkifiers exactly once');
    expectError(await t.patch('realm/linkifiers', { form: {} }), 400, "Missing 'ordered_linkifier_ids' argument", 'REQUEST_VARIABLE_MISSING', {
      var_name: 'ordered_linkifier_ids',
    });
    expectError(await reorder('[1,"x"]'), 400, 'ordered_linkifier_ids[1] is not an integer');
    // Another organization's linkifier cannot be listed.
    const theirs = (await add(ISSUES, otherOwner)).body.id;
    expectError(await reorder([a, b, theirs]), 400, 'The ordered list must enumerate all existing linkifiers exactly once');
    expectSuccess(await t.delete(`realm/filters/${theirs}`, { as: otherOwner }));
  });

  it('accepts an empty list when there are none', async () => {
    expectSuccess(await t.patch('realm/linkifiers', { form: { ordered_linkifier_ids: [] } }));
  });
});

describe('linkifiers in POST /register', () => {
  beforeEach(clear);

  it('fills realm_linkifiers only for clients with linkifier_url_template; realm_filters is always empty', async () => {
    const id = await addOk({ ...ISSUES, example_input: '#3', reverse_template: '#{id}' });
    const capable = await register({ notification_settings_null: false, linkifier_url_template: true });
    expectSuccess(capable);
    expect(capable.body.realm_linkifiers).toEqual([
      {
        pattern: ISSUES.pattern,
        url_template: ISSUES.url_template,
        id,
        example_input: '#3',
        reverse_template: '#{id}',
        alternative_url_templates: [],
      },
    ]);
    expect(capable.body.realm_filters).toEqual([]);
    expect((await register()).body.realm_linkifiers).toEqual([]);
    expect((await register({ notification_settings_null: true })).body.realm_linkifiers).toEqual([]);
  });

  it('reads client_capabilities as Zulip does', async () => {
    expectError(
      await register({ linkifier_url_template: true }),
      400,
      'client_capabilities["notification_settings_null"] field is missing: Field required',
    );
    const res = await t.post('register', { form: { fetch_event_types: ['realm_filters'], client_capabilities: { notification_settings_null: false, linkifier_url_template: 1 } } });
    expectError(res, 400, 'client_capabilities["linkifier_url_template"] is not a boolean');
    expectSuccess(
      await t.post('register', { form: { fetch_event_types: ['realm_filters'], client_capabilities: { notification_settings_null: true, future_capability: true } } }),
    );
    expectError(await t.post('register', { form: { client_capabilities: '[]' } }), 400, 'client_capabilities is not a dict');
  });
});
