import './zod-config';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './i18n';
import { App } from './app/app';
import { installImageGuards } from './app/image-guards';

installImageGuards();

const container = document.getElementById('root');
if (!container) throw new Error('index.html lacks the #root element');

createRoot(container).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
