import { StrictMode } from 'react';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { I18nextProvider } from 'react-i18next';
import type { Translator } from '@/shared/i18n/i18n';
import { RouterProvider } from 'react-router/dom';
import type { DataRouter } from 'react-router';
import { AppServicesContext, type AppServices } from '@/shared/services/app-services';
import { ModalContext } from '@/shared/ui/modal/modal-context';
import type { ModalStore } from '@/shared/ui/modal/modal-store';
import { ToastContext } from '@/shared/ui/toast/toast-context';
import type { ToastStore } from '@/shared/ui/toast/toast-store';

export interface AppProps {
  router: DataRouter;
  queryClient: QueryClient;
  i18n: Translator;
  services: AppServices;
  modals: ModalStore;
  toasts: ToastStore;
}

/** All providers around the router. */
export function App({ router, queryClient, i18n, services, modals, toasts }: AppProps) {
  return (
    <StrictMode>
      <I18nextProvider i18n={i18n}>
        <QueryClientProvider client={queryClient}>
          <AppServicesContext.Provider value={services}>
            <ModalContext.Provider value={modals}>
              <ToastContext.Provider value={toasts}>
                <RouterProvider router={router} />
              </ToastContext.Provider>
            </ModalContext.Provider>
          </AppServicesContext.Provider>
        </QueryClientProvider>
      </I18nextProvider>
    </StrictMode>
  );
}
