export * from './domain-error.js';
export * from './text.js';
export * from './aggregate-root.js';
export * from './html.js';
export * from './image-upload.js';
export * from './client-compatibility.js';
