/**
 * The languages a user may pick (Zulip's get_available_language_codes) and their names
 * (get_language_name, used in `language_name`): Zulip's translated locales, each named with
 * Django's LANG_INFO `name_local`, English included.
 */
const LANGUAGES: readonly (readonly [code: string, name: string])[] = [
  ['ar', 'العربيّة'],
  ['be', 'беларуская'],
  ['bg', 'български'],
  ['bn', 'বাংলা'],
  ['ca', 'català'],
  ['cs', 'česky'],
  ['cy', 'Cymraeg'],
  ['da', 'dansk'],
  ['de', 'Deutsch'],
  ['el', 'Ελληνικά'],
  ['en', 'English'],
  ['en-gb', 'British English'],
  ['eo', 'Esperanto'],
  ['es', 'español'],
  ['et', 'eesti'],
  ['fa', 'فارسی'],
  ['fi', 'suomi'],
  ['fr', 'français'],
  ['gl', 'galego'],
  ['gu', 'ગુજરાતી'],
  ['hi', 'हिंदी'],
  ['hu', 'Magyar'],
  ['id', 'Bahasa Indonesia'],
  ['it', 'italiano'],
  ['ja', '日本語'],
  ['kk', 'Қазақ'],
  ['ko', '한국어'],
  ['lt', 'Lietuviškai'],
  ['lv', 'latviešu'],
  ['ml', 'മലയാളം'],
  ['mn', 'Mongolian'],
  ['my', 'မြန်မာဘာသာ'],
  ['nl', 'Nederlands'],
  ['no', 'norsk'],
  ['pl', 'polski'],
  ['pt', 'Português'],
  ['pt-br', 'Português Brasileiro'],
  ['pt-pt', 'Português (Portugal)'],
  ['ro', 'Română'],
  ['ru', 'Русский'],
  ['si', 'සිංහල'],
  ['sl', 'Slovenščina'],
  ['sr', 'српски'],
  ['sv', 'svenska'],
  ['ta', 'தமிழ்'],
  ['tl', 'Tagalog'],
  ['tr', 'Türkçe'],
  ['uk', 'Українська'],
  ['vi', 'Tiếng Việt'],
  ['zh-hans', '简体中文'],
  ['zh-hant', '繁體中文'],
];

const NAMES = new Map(LANGUAGES);

export const isAvailableLanguage = (code: string): boolean => NAMES.has(code);

/** Zulip's get_language_name: "Unknown" for a code it does not know. */
export const languageName = (code: string): string => NAMES.get(code) ?? 'Unknown';
