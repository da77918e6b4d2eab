/**
 * The emoji context's public surface: the Unicode emoji table and the organization's custom emoji.
 * Other contexts import this context only through this file.
 */
export * from './application/emoji-catalog.js';
export * from './application/realm-emoji.service.js';
export * from './application/realm-emoji.views.js';
export type { RealmEmojiRecord } from './application/realm-emoji.ports.js';
