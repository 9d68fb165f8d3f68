import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: ['packages/contracts', 'apps/api', 'apps/web'],
    // Vitest's default, one worker fewer than the cores, runs one test file at a time on a 2-core
    // machine, while most API tests wait on the disk, PostgreSQL and the processes they start:
    // two files at a time there took the PostgreSQL pass from 399 s to 279 s, four the SQLite
    // pass from 389 s to 236 s (six: 230 s, the cores are then busy; docs/architecture.md).
    maxWorkers: Math.max(4, availableParallelism() - 1),
  },
});
