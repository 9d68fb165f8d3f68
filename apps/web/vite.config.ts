import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { textPart, type TextPart } from './src/i18n/text-parts';

const apiTarget = 'http://127.0.0.1:3000';

const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * Inlines what the first paint needs into index.html (src/boot/), so it waits for no other
 * request, however busy the connections are with the app's modules: the boot colours of each
 * theme, the blocking script that applies the stored theme, and the landing page's heading and
 * subtitle, one template per language with the texts of the locale files, which landing-boot.js
 * shows in #root for a visitor who is not signed in. React later replaces that heading with the
 * same heading at the same place, so the landing page's largest paint no longer waits for the
 * app's JavaScript. The API puts a fresh nonce in place of the placeholder on every request.
 */
function bootShell(): Plugin {
  const bootDir = fileURLToPath(new URL('./src/boot', import.meta.url));
  const localesDir = fileURLToPath(new URL('./src/i18n/locales', import.meta.url));
  const read = (file: string) => readFileSync(path.join(bootDir, file), 'utf8').trim();
  const template = (language: string) => {
    const texts = JSON.parse(readFileSync(path.join(localesDir, `${language}.json`), 'utf8')) as {
      landing: { title: string; subtitle: string };
    };
    return (
      `<template id="boot-landing-${language}"><div class="boot-header"></div>` +
      `<div class="boot-main"><h1 class="boot-title">${escapeHtml(texts.landing.title)}</h1>` +
      `<p class="boot-subtitle">${escapeHtml(texts.landing.subtitle)}</p></div></template>`
    );
  };
  return {
    name: 'raccolta-boot-shell',
    transformIndexHtml: {
      order: 'post',
      handler(html) {
        const nonce = 'nonce="__CSP_NONCE__"';
        return html
          .replace(
            '</title>',
            `</title>\n    <style ${nonce}>${read('boot.css')}</style>` +
              `\n    <script ${nonce}>${read('theme-init.js')}</script>`,
          )
          .replace(
            '<div id="root"></div>',
            `<div id="root"></div>${template('en')}${template('it')}` +
              `<script ${nonce}>${read('landing-boot.js')}</script>`,
          );
      },
    },
  };
}

/**
 * Cuts a language's texts in two: `./locales/en.json?texts=first` holds the sections the first
 * page of a visit needs (src/i18n/text-parts.ts), `?texts=rest` the others; each is a module
 * (and a chunk) of its own.
 */
function localeParts(): Plugin {
  return {
    name: 'raccolta-locale-parts',
    enforce: 'pre',
    load(id) {
      const match = /^(.*[\\/]locales[\\/](?:en|it)\.json)\?texts=(first|rest)$/.exec(id);
      if (match === null) return null;
      const [, file = '', part] = match;
      this.addWatchFile(file);
      const texts = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
      return { code: `export default ${JSON.stringify(textPart(texts, part as TextPart))};` };
    },
  };
}

/**
 * Writes a Brotli and a gzip copy beside every built script and style, compressed once at their
 * best levels; the API serves them to browsers that accept them (fastify-static preCompressed),
 * so no request pays for compression.
 */
function precompress(): Plugin {
  return {
    name: 'raccolta-precompress',
    apply: 'build',
    writeBundle(options, bundle) {
      const dir = options.dir ?? 'dist';
      for (const file of Object.keys(bundle)) {
        if (!/\.(js|css|svg|json)$/.test(file)) continue;
        const target = path.join(dir, file);
        const bytes = readFileSync(target);
        if (bytes.length < 1024) continue;
        writeFileSync(
          `${target}.br`,
          brotliCompressSync(bytes, {
            params: {
              [zlib.BROTLI_PARAM_QUALITY]: 11,
              [zlib.BROTLI_PARAM_SIZE_HINT]: bytes.length,
            },
          }),
        );
        writeFileSync(`${target}.gz`, gzipSync(bytes, { level: 9 }));
      }
    },
  };
}

export default defineConfig({
  // Pinned so `vite --config apps/web/vite.config.ts` works from the repository root too.
  root: fileURLToPath(new URL('.', import.meta.url)),
  plugins: [react(), localeParts(), bootShell(), precompress()],
  resolve: {
    alias: {
      '@raccolta/contracts': fileURLToPath(
        new URL('../../packages/contracts/src/index.ts', import.meta.url),
      ),
      // React 19 has useSyncExternalStore: react-i18next's shim for React 17 stays out.
      'use-sync-external-store/shim': fileURLToPath(
        new URL('./src/lib/sync-external-store.ts', import.meta.url),
      ),
    },
  },
  // The API replaces the placeholder per request with a fresh nonce and sends a strict CSP.
  html: { cspNonce: '__CSP_NONCE__' },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // Every browser the app supports preloads modules itself (modulepreload: Chrome 66, Firefox
    // 115, Safari 17); an older one only loads a lazy page's modules one after the other.
    modulePreload: { polyfill: false },
    rolldownOptions: {
      output: {
        // Modules run in the order of their imports even where the groups below put a module in
        // another chunk than its importer's neighbours (without it a merged chunk could run a
        // schema before the one it extends).
        strictExecutionOrder: true,
        // Chunks, by group (the highest priority takes a module first):
        // - 'react': React and the router, on every page, changing less often than the app: their
        //   own chunk stays cached across releases.
        // - 'initial': what the first page loads statically, one chunk.
        // - each part of each language's texts (`en-first`, `it-rest`, …): the first page loads
        //   one of them.
        // - 'mui', 'forms', 'dates': the libraries the lazy pages share, each whole. Zod and the
        //   form library come with the first form, the date pickers only with the pages that
        //   filter by date.
        // - 'shared': the app's own lib/ and components/, without their libraries.
        // - 'app': everything else, by the set of lazy pages (app/router.tsx) that use it.
        // Without the library groups the split made ~160 chunks, most under 3 KB, and a
        // signed-in page on a phone link waited ~15 round trips for them; merging the small sets
        // into their neighbours instead chained unrelated pages together (the sign-in page
        // downloaded the date pickers, the landing page every page's modules through its texts).
        // docs/benchmarks.md, "First load in Chromium" and "First visit on a phone link", has the
        // figures.
        codeSplitting: {
          groups: [
            {
              name: 'react',
              test: /node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/,
              priority: 10,
            },
            { name: 'initial', tags: ['$initial'], priority: 8 },
            {
              name: (id: string) =>
                /locales[\\/](en|it)\.json\?texts=(first|rest)$/.exec(id)?.slice(1).join('-') ??
                null,
              debugName: 'texts',
              test: /locales[\\/](?:en|it)\.json\?texts=/,
              priority: 9,
            },
            {
              name: 'dates',
              test: /node_modules[\\/](@mui[\\/]x-date-pickers|date-fns)[\\/]/,
              priority: 4,
            },
            {
              name: 'mui',
              test: /node_modules[\\/](@mui[\\/](?!x-date-pickers)[^\\/]+|@emotion|@popperjs|react-transition-group|dom-helpers|@base-ui)[\\/]/,
              priority: 6,
            },
            {
              name: 'forms',
              test: /node_modules[\\/](zod|react-hook-form|@hookform)[\\/]/,
              priority: 6,
            },
            {
              name: 'shared',
              test: /[\\/]src[\\/](lib|components)[\\/](?!date-range-filter[\\/])/,
              includeDependenciesRecursively: false,
              priority: 2,
            },
            {
              name: 'app',
              entriesAware: true,
              entriesAwareMergeThreshold: 0,
              priority: 1,
            },
          ],
        },
      },
    },
  },
  server: { proxy: { '/api': apiTarget } },
  preview: { proxy: { '/api': apiTarget } },
});
