import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: ['packages/contracts', 'apps/api', 'apps/web'],
    // Vitest's default, one worker fewer than the cores, runs one test file at a time on a 2-core
    // machine, while most API tests wait on the disk, PostgreSQL and the processes they start:
    // two files at a time there took the PostgreSQL pass from 399 s to 279 s (docs/architecture.md).
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
});
