import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter } from 'react-router';
import { ConsoleApp } from '@/app/app';
import { createConsoleRoutes } from '@/app/routes';
import { watchActivity } from '@/shared/activity';
import { createApi } from '@/shared/api';
import { createI18n, localeOf, savedLocale } from '@/shared/i18n';
import { createQueryClient } from '@/shared/query-client';
import { createSessionStore, tabStorage } from '@/shared/session';
import './styles.css';

watchActivity();
const i18n = createI18n(savedLocale());
const session = createSessionStore(tabStorage());
const api = createApi({ session, locale: () => localeOf(i18n) });
const queryClient = createQueryClient();
// Vite's base (`/console/`) without its last slash.
const router = createBrowserRouter(createConsoleRoutes(), {
  basename: import.meta.env.BASE_URL.replace(/\/$/, '') || '/',
});

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root');
createRoot(root).render(
  <StrictMode>
    <ConsoleApp router={router} services={{ api, session }} queryClient={queryClient} i18n={i18n} />
  </StrictMode>,
);
