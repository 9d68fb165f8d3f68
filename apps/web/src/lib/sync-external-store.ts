// What `use-sync-external-store/shim` gives react-i18next on React 18 and later, without the
// shim's own implementation for React 17, which the app never uses (vite.config.ts aliases it).
export { useSyncExternalStore } from 'react';
