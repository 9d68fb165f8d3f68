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
    // The files share one set of modules per worker instead of importing React, MUI and the app
    // afresh for each: about half the project's CPU time (docs/architecture.md). What a file
    // leaves behind is reset in src/test/setup.ts.
    isolate: false,
    setupFiles: ['src/test/setup.ts'],
    // Pages that draw date pickers render slowly under jsdom, more so on a loaded CI machine.
    testTimeout: 20_000,
  },
});
