import { z } from 'zod';

// Zod's fast path compiles parsers with `new Function`; under the app's CSP (no 'unsafe-eval')
// even its probe is reported as a violation. Imported first by main.tsx so no schema runs before.
z.config({ jitless: true });
