/**
 * The server context's public surface: what the server tells clients about itself.
 * Other contexts import this context only through this file.
 */
export * from './application/server-info.js';
