export * from './encoding.js';
export * from './tokens.js';
export * from './device-registration.js';
export * from './relay.js';
