/**
 * The channels context's public surface: channel and subscription records, the channel read
 * model, the channel/subscription/user-topic events and their JSON views.
 * Other contexts import this context only through this file.
 */
export * from './application/channel.events.js';
export * from './application/channel.ports.js';
export * from './application/channel.views.js';
export { presentDefaultChannelGroups } from './application/default-channel-groups.service.js';
