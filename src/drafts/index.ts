/**
 * The drafts context's public surface: drafts, saved snippets, reminders and scheduled messages
 * as the register state shows them.
 * Other contexts import this context only through this file.
 */
export * from './application/draft.views.js';
export * from './application/drafts.service.js';
export * from './application/reminders.service.js';
export * from './application/saved-snippets.service.js';
export { ScheduledMessagesService } from './application/scheduled-messages.service.js';
