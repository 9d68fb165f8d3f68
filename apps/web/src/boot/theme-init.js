/* global document, window */
// Runs as a blocking classic script before the first paint so the page never flashes the wrong
// theme. It mirrors readStoredThemeMode/resolveThemeMode in src/theme/theme-mode.ts; keep the
// storage key and values in step with that file.
(function () {
  var mode = null;
  try {
    var stored = window.localStorage.getItem('themeMode');
    if (stored === 'light' || stored === 'dark') mode = stored;
  } catch {
    // Storage can be unavailable (privacy modes); the system preference still applies.
  }
  if (mode === null) {
    mode =
      window.matchMedia && window.matchMedia('(prefers-color-scheme: dark)').matches
        ? 'dark'
        : 'light';
  }
  document.documentElement.setAttribute('data-theme-mode', mode);
})();
