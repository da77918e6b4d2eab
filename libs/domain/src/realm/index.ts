export * from './bot-creation.policy.js';
export * from './linkifier.js';
export * from './model-validation.js';
export * from './playground.js';
export * from './realm-domain.js';
export * from './realm-settings.js';
export * from './realm-settings-update.js';
export * from './uri-template.js';
