export * from './emoji.js';
export * from './unicode-emoji.js';
export * from './custom-emoji.policy.js';
