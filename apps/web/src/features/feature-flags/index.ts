export { useClientConfig } from './api/get-client-config';
export { QueryDevtools } from './components/query-devtools';
export { useFeatureFlag } from './hooks/use-feature-flag';
