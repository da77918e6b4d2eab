export * from './draft.js';
export * from './saved-snippet.js';
export * from './reminder.js';
export * from './scheduled-message.js';
