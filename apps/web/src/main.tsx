import '@fontsource/noto-sans-sc/400.css';
import '@fontsource/noto-sans-jp/400.css';
import '@fontsource/noto-sans-kr/400.css';
import './styles.css';
import { createRoot } from 'react-dom/client';
import { App } from './App.tsx';
import { startBuildChecker } from './shared/build-checker.ts';
import { loadAntdLocale } from './shared/i18n/antd-locale.ts';
import { initI18n, storedLanguage } from './shared/i18n/index.ts';

const language = storedLanguage();
const [, locale] = await Promise.all([initI18n(language), loadAntdLocale(language)]);
const root = document.getElementById('root');
if (root) createRoot(root).render(<App locale={locale} />);
if (import.meta.env.PROD) startBuildChecker();
