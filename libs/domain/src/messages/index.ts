export * from './content.js';
export * from './flags.js';
export * from './mentions.js';
export * from './message-edit.policy.js';
export * from './message-send.policy.js';
export * from './topic.js';
export * from './unreads.js';
