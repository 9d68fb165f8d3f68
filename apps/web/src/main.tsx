import './zod-config';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { installImageGuards } from './app/image-guards';
import { i18nReady } from './i18n/boot';

installImageGuards();

const container = document.getElementById('root');
if (!container) throw new Error('index.html lacks the #root element');
const root = container;

function render(): void {
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}

// The first render waits for the visitor's texts (one small chunk); should they fail to arrive,
// the app still starts, and i18next reports the failure in the console.
i18nReady.then(render, render);
