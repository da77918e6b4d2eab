export * from './emoji.js';
export * from './unicode-emoji.js';
