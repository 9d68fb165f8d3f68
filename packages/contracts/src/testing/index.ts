/**
 * Test-only: the §6 truth tables typed from the spec, imported as `@raccolta/contracts/testing`
 * by the contracts tests and the API's authorisation matrices. Not part of the built package.
 */
export * from './spec-matrix.js';
export * from './collection-tables.js';
export * from './member-tables.js';
