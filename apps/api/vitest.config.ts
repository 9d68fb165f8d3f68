import { fileURLToPath } from 'node:url';
import { defineProject } from 'vitest/config';

export default defineProject({
  resolve: {
    alias: {
      // Test-only truth tables of spec §6, not in the built package; listed first, as the next
      // entry would also match this path.
      '@raccolta/contracts/testing': fileURLToPath(
        new URL('../../packages/contracts/src/testing/index.ts', import.meta.url),
      ),
      '@raccolta/contracts': fileURLToPath(
        new URL('../../packages/contracts/src/index.ts', import.meta.url),
      ),
    },
  },
  test: {
    name: 'api',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Each worker imports the app once for all its files instead of once per file: the project's
    // CPU time fell from 68 s to 27 s on test/auth, members and teams, and every test builds its
    // own app, database and storage, so no file reaches another's state (docs/architecture.md).
    isolate: false,
  },
});
