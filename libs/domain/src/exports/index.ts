export * from './realm-export.js';
export * from './archive-format.js';
