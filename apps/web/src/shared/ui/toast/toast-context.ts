import { createContext, useContext } from 'react';
import { toastStore, type ToastStore } from './toast-store';

export const ToastContext = createContext<ToastStore>(toastStore);

/** `const toast = useToast(); toast.show({ type: 'error', message })`. */
export function useToast(): ToastStore {
  return useContext(ToastContext);
}
