export * from './bot-creation.policy.js';
export * from './realm-settings.js';
