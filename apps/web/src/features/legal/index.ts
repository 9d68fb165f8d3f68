export { LegalPage, PrivacyPage, TermsPage } from './components/legal-page';
