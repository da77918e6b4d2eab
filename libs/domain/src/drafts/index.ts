export * from './draft.js';
export * from './saved-snippet.js';
