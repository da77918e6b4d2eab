/**
 * The realm context's public surface: the organization's settings and resources, and which
 * organization a request is for.
 * Other contexts import this context only through this file.
 */
export * from './application/realm-resolver.js';
export * from './application/realm-resources.views.js';
export * from './application/realm.ports.js';
export * from './application/realm-branding.views.js';
