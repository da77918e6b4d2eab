/**
 * The messages context's public surface: access to messages, rendering, the Notification Bot,
 * sending a user's message inside another use case's transaction.
 * Other contexts import this context only through this file.
 */
export * from './application/message-reads.service.js';
export * from './application/message-renderer.js';
export * from './application/notification-bot.js';
export { type CheckedSend, MessageSender, type SendRequest, type SendResult } from './application/message-send.service.js';
export * from './application/render-targets.resolver.js';
