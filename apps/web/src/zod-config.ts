// Zod's fast path compiles parsers with `new Function`; under the app's CSP (no 'unsafe-eval')
// even its probe is reported as a violation. Zod takes its configuration from this global when it
// loads, so setting it here, first thing in main.tsx, makes every schema jitless without
// downloading Zod itself on pages that validate nothing.
declare global {
  var __zod_globalConfig: Record<string, unknown> | undefined;
}

globalThis.__zod_globalConfig = { ...globalThis.__zod_globalConfig, jitless: true };

export {};
