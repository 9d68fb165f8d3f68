/** The validation rules of spec §5, as field schemas and request/form schemas. */
export * from './validation-fields.js';
export * from './validation-auth.js';
export * from './validation-teams.js';
export * from './validation-filters.js';
export * from './validation-second-factors.js';
