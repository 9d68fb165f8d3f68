export { useClientConfig } from './api/get-client-config';
export { useFeatureFlag } from './hooks/use-feature-flag';
