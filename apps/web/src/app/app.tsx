import { StrictMode } from 'react';
import { I18nextProvider } from 'react-i18next';
import type { LazyValue } from '@/shared/api/lazy-value';
import { LazyQueryClientProvider } from '@/shared/api/query-provider';
import type { QueryRuntime } from '@/shared/api/query-runtime';
import type { Translator } from '@/shared/i18n/i18n';
import { RouterView, type AppRouter } from '@/shared/router/app-router';
import { AppServicesContext, type AppServices } from '@/shared/services/app-services';
import { ModalContext } from '@/shared/ui/modal/modal-context';
import type { ModalStore } from '@/shared/ui/modal/modal-store';
import { ToastContext } from '@/shared/ui/toast/toast-context';
import type { ToastStore } from '@/shared/ui/toast/toast-store';

export interface AppProps {
  router: AppRouter;
  /** The query cache, once loaded (a guest's first screen does without it). */
  queries: LazyValue<QueryRuntime>;
  i18n: Translator;
  services: AppServices;
  modals: ModalStore;
  toasts: ToastStore;
}

/** All providers around the router. */
export function App({ router, queries, i18n, services, modals, toasts }: AppProps) {
  return (
    <StrictMode>
      <I18nextProvider i18n={i18n}>
        <LazyQueryClientProvider runtime={queries}>
          <AppServicesContext.Provider value={services}>
            <ModalContext.Provider value={modals}>
              <ToastContext.Provider value={toasts}>
                <RouterView router={router} />
              </ToastContext.Provider>
            </ModalContext.Provider>
          </AppServicesContext.Provider>
        </LazyQueryClientProvider>
      </I18nextProvider>
    </StrictMode>
  );
}
