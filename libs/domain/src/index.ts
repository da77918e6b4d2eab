export * from './shared/index.js';
export * from './users/index.js';
export * from './realm/index.js';
export * from './channels/index.js';
export * from './messages/index.js';
export * from './drafts/index.js';
export * from './invitations/index.js';
export * from './emoji/index.js';
