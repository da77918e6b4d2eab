export * from './constraints.js';
export * from './decoders.js';
export * from './request-params.js';
export * from './zulip-params.js';
