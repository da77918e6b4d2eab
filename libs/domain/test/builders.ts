/**
 * Builders for the domain specs: an aggregate or a fact in one line, with the defaults of a
 * fresh organization (see GROUP in builders/common.ts). One file per context.
 */
export * from './builders/common.js';
export * from './builders/channels.js';
export * from './builders/subscriptions.js';
export * from './builders/messages.js';
export * from './builders/presence.js';
export * from './builders/users.js';
export * from './builders/drafts.js';
export * from './builders/user-groups.js';
