export * from './presence.js';
export * from './typing.js';
