/* global document, window */
// Runs as a blocking classic script right after #root, before the app's modules: on the landing
// page of a visitor who is not signed in, it shows the page's heading and subtitle from the
// templates index.html carries (one per language, built from the locale files), so they paint
// at once. React replaces them with the same heading when it starts. The language rule mirrors
// detectLanguage in src/i18n/detect-language.ts; the session key is TOKEN_KEYS.accessToken.
(function () {
  if (window.location.pathname !== '/') return;
  try {
    // A signed-in visitor is sent on from the landing page; nothing to show.
    if (window.localStorage.getItem('AccessToken')) return;
  } catch {
    // Storage unavailable: nobody is signed in.
  }
  var languages =
    navigator.languages && navigator.languages.length > 0
      ? navigator.languages
      : [navigator.language || ''];
  var italian = false;
  for (var i = 0; i < languages.length; i++) {
    if (String(languages[i]).trim().toLowerCase().split(/[-_]/)[0] === 'it') italian = true;
  }
  var template = document.getElementById(italian ? 'boot-landing-it' : 'boot-landing-en');
  var root = document.getElementById('root');
  if (!template || !root || root.firstChild) return;
  root.appendChild(template.content.cloneNode(true));
  document.documentElement.lang = italian ? 'it' : 'en';
})();
