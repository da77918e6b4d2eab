/**
 * The messages context's public surface: access to messages, rendering, the Notification Bot.
 * Other contexts import this context only through this file.
 */
export * from './application/message-reads.service.js';
export * from './application/message-renderer.js';
export * from './application/notification-bot.js';
