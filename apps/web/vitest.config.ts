import { fileURLToPath } from 'node:url';
import { defineProject } from 'vitest/config';

export default defineProject({
  resolve: {
    alias: [
      {
        find: '@raccolta/contracts',
        replacement: fileURLToPath(
          new URL('../../packages/contracts/src/index.ts', import.meta.url),
        ),
      },
      // The tests run in Node with jsdom, where the package's "main" is its Node build (streams
      // and Buffers); the app bundles the browser build through the "browser" field.
      { find: /^tus-js-client$/, replacement: 'tus-js-client/lib.esm/browser/index.js' },
    ],
  },
  test: {
    name: 'web',
    include: ['src/**/*.test.{ts,tsx}'],
    environment: 'jsdom',
    setupFiles: ['src/test/setup.ts'],
    // Pages that draw date pickers render slowly under jsdom, more so on a loaded CI machine.
    testTimeout: 20_000,
  },
});
