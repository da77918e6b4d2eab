import { CustomEmojiCatalog } from '../emoji/emoji.js';
import { UnicodeEmojiTable } from '../emoji/unicode-emoji.js';
import {
  isListedStatus,
  parseStatusText,
  planStatusChange,
  type StatusUpdateRequest,
  type UserStatusState,
  viewOfStatus,
} from './user-status.js';

const catalog = new CustomEmojiCatalog([
  { id: 3, name: 'green_tick', deactivated: false },
  { id: 4, name: 'gone', deactivated: true },
]);
const unicode = new UnicodeEmojiTable([
  { name: 'thumbs_up', code: '1f44d' },
  { name: 'automobile', code: '1f697' },
  { name: 'laptop', code: '1f4bb' },
  { name: 'car', code: '1f697' },
]);
const plan = (req: StatusUpdateRequest) => planStatusChange(req, catalog, unicode);

describe('parseStatusText', () => {
  it('strips, then allows 60 code points', () => {
    expect(parseStatusText('   in office  ')).toBe('in office');
    expect(parseStatusText(`  ${'x'.repeat(60)}\n`)).toBe('x'.repeat(60));
    expect(parseStatusText('😀'.repeat(60))).toHaveLength(120);
    expect(parseStatusText('   ')).toBe('');
  });
  it('refuses 61 code points', () => {
    expect(() => parseStatusText('x'.repeat(61))).toThrow('status_text is too long (limit: 60 characters)');
    expect(() => parseStatusText('😀'.repeat(61))).toThrow('status_text is too long (limit: 60 characters)');
  });
});

describe('planStatusChange', () => {
  it('needs away, status_text or emoji_name', () => {
    expect(() => plan({})).toThrow('Client did not pass any new values.');
    // a code or type alone is not a new value either: the same message comes first
    expect(() => plan({ emojiCode: '1f697' })).toThrow('Client did not pass any new values.');
    expect(() => plan({ reactionType: 'unicode_emoji' })).toThrow('Client did not pass any new values.');
  });

  it('needs emoji_name with emoji_code or reaction_type', () => {
    const msg = 'Client must pass emoji_name if they pass either emoji_code or reaction_type.';
    expect(() => plan({ statusText: 'In a meeting', emojiCode: '1f4bb' })).toThrow(msg);
    expect(() => plan({ away: true, reactionType: 'unicode_emoji' })).toThrow(msg);
  });

  it('treats an empty code or type without a name as not sent', () => {
    expect(plan({ statusText: 'x', emojiCode: '', reactionType: '' })).toEqual({ statusText: 'x' });
  });

  it('changes only what was sent', () => {
    expect(plan({ statusText: 'on vacation' })).toEqual({ statusText: 'on vacation' });
    expect(plan({ away: true })).toEqual({ away: true });
    expect(plan({ away: false, statusText: '' })).toEqual({ away: false, statusText: '' });
  });

  it('clears the emoji on an empty name, whatever code and type came with it', () => {
    const cleared = { emoji: { name: '', code: '', reactionType: 'unicode_emoji' } };
    expect(plan({ emojiName: '' })).toEqual(cleared);
    expect(plan({ emojiName: '', emojiCode: 'junk', reactionType: 'junk' })).toEqual(cleared);
  });

  it('fills the code and type from the name', () => {
    expect(plan({ emojiName: 'car' }).emoji).toEqual({ name: 'car', code: '1f697', reactionType: 'unicode_emoji' });
    expect(plan({ emojiName: 'thumbs_up' }).emoji).toEqual({ name: 'thumbs_up', code: '1f44d', reactionType: 'unicode_emoji' });
    expect(plan({ emojiName: 'zulip' }).emoji).toEqual({ name: 'zulip', code: 'zulip', reactionType: 'svc_extra_emoji' });
    expect(plan({ emojiName: 'green_tick' }).emoji).toEqual({ name: 'green_tick', code: '3', reactionType: 'realm_emoji' });
  });

  it('fills only the missing half', () => {
    expect(plan({ emojiName: 'car', emojiCode: '1f697' }).emoji).toEqual({
      name: 'car',
      code: '1f697',
      reactionType: 'unicode_emoji',
    });
    expect(plan({ emojiName: 'car', reactionType: 'unicode_emoji' }).emoji?.code).toBe('1f697');
    // the type comes from the name, then the code given must match it
    expect(() => plan({ emojiName: 'car', emojiCode: '1f4bb' })).toThrow('Invalid emoji name.');
    expect(() => plan({ emojiName: 'green_tick', emojiCode: '1f697' })).toThrow('Invalid custom emoji.');
  });

  it('looks the name up whenever the code or type is missing', () => {
    expect(() => plan({ statusText: 'In a meeting', emojiCode: '1f4bb', emojiName: 'invalid' })).toThrow(
      "Emoji 'invalid' does not exist",
    );
    expect(() => plan({ emojiName: 'gone' })).toThrow("Emoji 'gone' does not exist");
  });

  it('does not look the name up when both are given', () => {
    expect(() => plan({ emojiName: 'invalid', emojiCode: '1f4bb', reactionType: 'unicode_emoji' })).toThrow(
      'Invalid emoji name.',
    );
    expect(() => plan({ emojiName: 'car', emojiCode: '1f4bb', reactionType: 'realm_emoji' })).toThrow(
      'Invalid custom emoji.',
    );
    expect(() => plan({ emojiName: 'gone', emojiCode: '4', reactionType: 'realm_emoji' })).toThrow(
      'This custom emoji has been deactivated.',
    );
    expect(() => plan({ emojiName: 'car', emojiCode: '1f697', reactionType: 'bogus' })).toThrow('Invalid emoji type.');
  });

  it('accepts a full, consistent triple', () => {
    expect(plan({ statusText: 'out to lunch', emojiName: 'car', emojiCode: '1f697', reactionType: 'unicode_emoji' })).toEqual({
      statusText: 'out to lunch',
      emoji: { name: 'car', code: '1f697', reactionType: 'unicode_emoji' },
    });
  });
});

describe('viewOfStatus / isListedStatus', () => {
  const blank: UserStatusState = {
    userId: 1,
    presenceEnabled: true,
    statusText: '',
    emojiName: '',
    emojiCode: '',
    reactionType: 'unicode_emoji',
  };

  it('shows nothing for a blank status and leaves it out of the list', () => {
    expect(viewOfStatus(blank)).toEqual({});
    expect(isListedStatus(blank)).toBe(false);
  });

  it('shows away only when presence is off', () => {
    const away = { ...blank, presenceEnabled: false };
    expect(viewOfStatus(away)).toEqual({ away: true });
    expect(isListedStatus(away)).toBe(true);
  });

  it('shows the text and the emoji when set', () => {
    const s = { ...blank, statusText: 'in office', emojiName: 'car', emojiCode: '1f697' };
    expect(viewOfStatus(s)).toEqual({ statusText: 'in office', emoji: { name: 'car', code: '1f697', reactionType: 'unicode_emoji' } });
    expect(isListedStatus(s)).toBe(true);
    expect(viewOfStatus({ ...blank, statusText: 'x' })).toEqual({ statusText: 'x' });
  });
});
