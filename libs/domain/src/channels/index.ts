export * from './channel.js';
export * from './channel-access.policy.js';
export * from './channel-creation.policy.js';
export * from './channel-email.js';
export * from './channel-name.js';
export * from './channel-settings.js';
export * from './subscription.js';
export * from './subscription.policy.js';
