export * from './errors.js';
export * from './status.js';
export * from './pagination.js';
