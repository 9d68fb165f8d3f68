import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/**
 * The cluster test (`npm test -- cluster`): nginx, two API nodes, two workers, PostgreSQL and an
 * S3 store, as docs/deployment.md describes them. Its own run, after the build: it starts the
 * built processes, as systemd would.
 */
export default defineConfig({
  root: fileURLToPath(new URL('..', import.meta.url)),
  resolve: {
    alias: {
      '@raccolta/contracts': fileURLToPath(
        new URL('../../../packages/contracts/src/index.ts', import.meta.url),
      ),
    },
  },
  test: {
    name: 'cluster',
    include: ['cluster/**/*.test.ts'],
    testTimeout: 300_000,
    hookTimeout: 180_000,
    pool: 'forks',
    fileParallelism: false,
  },
});
