import { aProfileField, aSelectField } from '../../test/builders.js';
import { defineField, ProfileFieldType as T, reorderFields, updateField } from './custom-profile-field.js';
import { assertCanEditProfileField, checkProfileValue, type PickableUser } from './profile-field-value.js';
import { Role } from './role.js';

const request = (o: Record<string, unknown> = {}) => ({
  name: 'Phone',
  hint: '',
  type: T.SHORT_TEXT as number,
  fieldData: {},
  displayInProfileSummary: false,
  required: false,
  editableByUser: true,
  useForUserMatching: false,
  ...o,
});

describe('defineField', () => {
  it('stores data only for List of options and External account fields', () => {
    expect(defineField(request({ fieldData: { ignored: 'x' } }), 0).fieldData).toBe('');
    const choices = { a: { text: 'A', order: '1' } };
    expect(defineField(request({ type: T.SELECT, fieldData: choices }), 0).fieldData).toBe('{"a":{"text":"A","order":"1"}}');
  });

  it('takes a default external account’s label from Zulip’s table', () => {
    expect(defineField(request({ name: '', type: T.EXTERNAL_ACCOUNT, fieldData: { subtype: 'mastodon' } }), 0)).toMatchObject({
      name: 'Mastodon profile',
      hint: 'The full URL to your profile',
      fieldData: '{"subtype":"mastodon"}',
    });
  });

  it.each([
    [{ displayInProfileSummary: true }, 2, 'Only 2 custom profile fields can be displayed in the profile summary.'],
    [{ type: 99, name: '' }, 0, 'Label cannot be blank.'],
    [{ type: 99 }, 0, 'Invalid field type.'],
    [{ type: T.SELECT, fieldData: {}, name: '' }, 0, 'Field must have at least one choice.'],
    [{ type: T.USER, displayInProfileSummary: true }, 0, 'Field type not supported for display in profile summary.'],
    [{ hint: 'h'.repeat(81), name: 'n'.repeat(41) }, 0, 'hint is too long (limit: 80 characters)'],
    [{ name: '😀'.repeat(41) }, 0, 'name is too long (limit: 40 characters)'],
    [{ type: T.EXTERNAL_ACCOUNT, fieldData: { subtype: 'custom', url_pattern: 'https://x.org/%(username)s/%(username)s' } }, 0, "URL pattern must contain '%(username)s'."],
  ])('%j (summary fields: %i) → %s', (o, summary, msg) => {
    expect(() => defineField(request(o), summary)).toThrow(msg);
  });

  it('counts label length in code points', () => {
    expect(defineField(request({ name: '😀'.repeat(40) }), 0).name).toBe('😀'.repeat(40));
  });
});

describe('updateField', () => {
  it('changes what is asked and reports the choices that disappear', () => {
    const up = updateField(aSelectField(), { fieldData: { a: { text: 'Aisle', order: '1' } }, required: true }, 0);
    expect(up.removedChoices).toEqual(['w']);
    expect(up.field).toMatchObject({ required: true, fieldData: '{"a":{"text":"Aisle","order":"1"}}', name: 'Seat' });
  });

  it('lets a default external account change only its flags', () => {
    const github = aProfileField({ type: T.EXTERNAL_ACCOUNT, name: 'GitHub username', fieldData: '{"subtype":"github"}' });
    expect(() => updateField(github, { hint: 'yours' }, 0)).toThrow('Default custom field cannot be updated.');
    expect(updateField(github, { name: 'GitHub username', displayInProfileSummary: true }, 1).field.displayInProfileSummary).toBe(true);
    expect(() => updateField(github, { displayInProfileSummary: true }, 2)).toThrow('Only 2 custom profile fields');
  });
});

describe('reorderFields', () => {
  it('places every field by its index in the order', () => {
    expect([...reorderFields([3, 1, 2], [2, 3, 1, 99])]).toEqual([
      [3, 1],
      [1, 2],
      [2, 0],
    ]);
    expect(() => reorderFields([3, 1], [1])).toThrow('Invalid order mapping.');
  });
});

describe('checkProfileValue', () => {
  const users = new Map<number, PickableUser>([
    [1, { isActive: true, isBot: false }],
    [2, { isActive: false, isBot: false }],
    [3, { isActive: true, isBot: true }],
  ]);
  it.each([
    [aProfileField(), 'p'.repeat(50), 'p'.repeat(50)],
    [aProfileField({ type: T.DATE, name: 'Birthday' }), '2024-02-29', '2024-02-29'],
    [aProfileField({ type: T.URL, name: 'Site' }), 'https://example.com/a?b=c', 'https://example.com/a?b=c'],
    [aSelectField(), 'w', 'w'],
    [aProfileField({ type: T.USER, name: 'Mentor' }), [1], '[1]'],
  ])('stores a good value (%#)', (field, value, stored) => {
    expect(checkProfileValue(field, value, users)).toBe(stored);
  });

  it.each([
    [aProfileField(), 'p'.repeat(51), 'Phone is too long (limit: 50 characters)'],
    [aProfileField({ type: T.LONG_TEXT, name: 'Bio' }), 'b'.repeat(501), 'Bio is too long (limit: 500 characters)'],
    [aProfileField({ type: T.DATE, name: 'Birthday' }), '2023-02-29', 'Birthday is not a date'],
    [aProfileField({ type: T.DATE, name: 'Birthday' }), '20240101', 'Birthday is not a date'],
    [aProfileField({ type: T.URL, name: 'Site' }), 'javascript:alert(1)', 'Site is not a URL'],
    [aSelectField(), 'x', "'x' is not a valid choice for 'Seat'."],
    [aProfileField({ type: T.USER, name: 'Mentor' }), [1, 9, 8], 'Invalid user IDs: 9, 8'],
    [aProfileField({ type: T.USER, name: 'Mentor' }), [2], 'User with ID 2 is deactivated'],
    [aProfileField({ type: T.USER, name: 'Mentor' }), [3], 'User with ID 3 is a bot'],
    [aProfileField({ type: T.USER, name: 'Mentor' }), 'me', 'User IDs is not a list'],
    [aProfileField({ type: T.PRONOUNS, name: 'Pronouns' }), [1], 'Pronouns is not a string'],
  ])('refuses a bad value (%#)', (field, value, msg) => {
    expect(() => checkProfileValue(field, value, users)).toThrow(msg);
  });

  it('keeps fields users may not edit for administrators', () => {
    const badge = aProfileField({ editableByUser: false });
    expect(() => assertCanEditProfileField(Role.MODERATOR, badge)).toThrow('You are not allowed to change this field. Contact an administrator to update it.');
    expect(() => assertCanEditProfileField(Role.ADMINISTRATOR, badge)).not.toThrow();
    expect(() => assertCanEditProfileField(Role.MEMBER, aProfileField())).not.toThrow();
  });
});
