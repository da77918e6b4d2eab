import {
  cldrStyleName,
  EmojibaseEmojiCatalog,
  emojibaseNameClaims,
  emojiCodeOfHexcode,
  loadEmojibaseTable,
  withoutAccents,
} from '../../src/emoji/catalog/emojibase-emoji-catalog.js';
import { UnicodeEmojiTable } from '@app/domain/emoji';

describe('emojibase naming helpers', () => {
  it('turns hexcodes into Zulip codes: lower case, no fe0f', () => {
    expect(emojiCodeOfHexcode('1F44D')).toBe('1f44d');
    expect(emojiCodeOfHexcode('0023-FE0F-20E3')).toBe('0023-20e3');
    expect(emojiCodeOfHexcode('1F3F3-FE0F-200D-1F308')).toBe('1f3f3-200d-1f308');
    expect(emojiCodeOfHexcode('1F1FA-1F1F8')).toBe('1f1fa-1f1f8');
  });

  it('writes CLDR short names in snake case, & as and, accents kept, symbols refused', () => {
    expect(cldrStyleName('thumbs up')).toBe('thumbs_up');
    expect(cldrStyleName('flag: São Tomé & Príncipe')).toBe('flag_são_tomé_and_príncipe');
    expect(cldrStyleName('flag: St. Kitts & Nevis')).toBe('flag_st_kitts_and_nevis');
    expect(cldrStyleName('flag: Côte d’Ivoire')).toBe('flag_côte_divoire');
    expect(cldrStyleName('T-Rex')).toBe('t_rex');
    expect(cldrStyleName('Japanese “here” button')).toBe('japanese_here_button');
    expect(cldrStyleName('keycap: #')).toBeUndefined();
    expect(cldrStyleName('keycap: *')).toBeUndefined();
  });

  it('drops accents', () => {
    expect(withoutAccents('flag_são_tomé_and_príncipe')).toBe('flag_sao_tome_and_principe');
    expect(withoutAccents('piñata')).toBe('pinata');
  });

  it('ranks CLDR-style names, then CLDR shortcodes, then accent-free names, then iamcal', () => {
    const table = new UnicodeEmojiTable(
      emojibaseNameClaims(
        [
          { hexcode: '1F44D', label: 'thumbs up', group: 1, version: 0.6 },
          { hexcode: '1F1F8-1F1F9', label: 'flag: São Tomé & Príncipe', group: 9, version: 2 },
          { hexcode: '1F307', label: 'sunset', group: 5, version: 0.6 },
          { hexcode: '1F306', label: 'cityscape at dusk', group: 5, version: 0.6 },
          { hexcode: '1F3FB', label: 'light skin tone', group: 2, version: 1 },
          { hexcode: '1F1E6', label: 'regional indicator A', version: 2 },
          { hexcode: '1FAEA', label: 'distorted face', group: 0, version: 17 },
        ],
        { '1F44D': 'thumbs_up', '1F1F8-1F1F9': 'flag_sao_tome_principe', '1F3FB': 'light_skin_tone' },
        { '1F44D': ['+1', 'thumbsup'], '1F306': ['city_sunset', 'sunset'], '1F1F8-1F1F9': 'flag-st', '1FAEA': 'distorted_face' },
      ),
    );
    expect(table.nameOf('1f44d')).toBe('thumbs_up');
    expect(table.codeOf('+1')).toBe('1f44d');
    expect(table.nameOf('1f1f8-1f1f9')).toBe('flag_são_tomé_and_príncipe');
    for (const n of ['flag_sao_tome_principe', 'flag_sao_tome_and_principe', 'flag-st']) expect(table.codeOf(n)).toBe('1f1f8-1f1f9');
    // iamcal's "sunset" loses to the CLDR name of another emoji
    expect(table.codeOf('sunset')).toBe('1f307');
    expect(table.codeOf('city_sunset')).toBe('1f306');
    // components, regional indicators and emoji newer than Emoji 16 are left out
    for (const c of ['1f3fb', '1f1e6', '1faea']) expect(table.nameOf(c)).toBeUndefined();
    expect(table.codeOf('light_skin_tone')).toBeUndefined();
    expect(table.codeOf('distorted_face')).toBeUndefined();
  });
});

describe('the Unicode emoji table from emojibase-data 17.0.0', () => {
  const table = loadEmojibaseTable();

  it.each([
    ['car', '1f697'],
    ['automobile', '1f697'],
    ['+1', '1f44d'],
    ['thumbs_up', '1f44d'],
    ['thumbsup', '1f44d'],
    ['computer', '1f4bb'],
    ['laptop', '1f4bb'],
    ['smile', '1f604'],
    ['grinning', '1f600'],
    ['grinning_face', '1f600'],
    ['heart', '2764'],
    ['flag_united_states', '1f1fa-1f1f8'],
    ['hash', '0023-20e3'],
    ['flag_são_tomé_and_príncipe', '1f1f8-1f1f9'],
    ['flag_sao_tome_and_principe', '1f1f8-1f1f9'],
    ['rainbow_flag', '1f3f3-200d-1f308'],
    ['t_rex', '1f996'],
    ['piñata', '1fa85'],
  ])('name %s → %s', (name, code) => {
    expect(table.codeOf(name)).toBe(code);
  });

  it('gives each emoji its CLDR name as canonical name (Zulip keeps some older names: +1, car)', () => {
    expect(table.nameOf('1f44d')).toBe('thumbs_up');
    expect(table.nameOf('1f697')).toBe('automobile');
    expect(table.nameOf('1f4bb')).toBe('laptop');
    expect(table.nameOf('1f1fa-1f1f8')).toBe('flag_united_states');
    expect(table.nameOf('0023-20e3')).toBe('keycap_number_sign');
  });

  it('knows nothing else: made-up names, upper case, variation selectors, prototype keys, components, Emoji 17', () => {
    for (const name of ['invalid', 'Car', 'car ', '', 'constructor', '__proto__', 'zulip', 'like']) {
      expect(table.codeOf(name)).toBeUndefined();
    }
    for (const code of ['1F697', '1f697-fe0f', 'xyz', '', 'toString', '1f3fb', '1f1e6', '1faea']) {
      expect(table.nameOf(code)).toBeUndefined();
    }
    expect(table.nameOf('1fae9')).toBe('face_with_bags_under_eyes'); // Emoji 16.0 is in
  });

  it('holds the whole table, every canonical name leading back to its emoji', () => {
    expect(table.emojiCount).toBe(1906);
    expect(table.nameCount).toBe(2948);
    const code = /^[0-9a-f]{4,5}(-[0-9a-f]{4,5})*$/;
    const all = [...table.canonicalNames()];
    expect(all).toHaveLength(1906);
    for (const [c, name] of all) {
      expect(c).toMatch(code);
      expect(c).not.toMatch(/fe0f/);
      expect(name).toMatch(/^\S+$/u);
      expect(table.codeOf(name)).toBe(c);
    }
  });

  it('is loaded once per process', () => {
    expect(new EmojibaseEmojiCatalog().unicode()).toBe(table);
  });
});
