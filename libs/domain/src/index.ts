export * from './shared/index.js';
export * from './users/index.js';
export * from './realm/index.js';
export * from './channels/index.js';
export * from './emoji/index.js';
