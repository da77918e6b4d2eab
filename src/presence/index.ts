/**
 * The presence context's public surface: the organization's presence as POST /register shows
 * it, and its implementation of the users context's PresenceSettingEffects.
 * Other contexts import this context only through this file.
 */
export * from './application/presence-setting.reaction.js';
export * from './application/presence.service.js';
