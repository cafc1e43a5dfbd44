import { createContext, useContext } from 'react';
import { modalStore, type ModalStore } from './modal-store';

export const ModalContext = createContext<ModalStore>(modalStore);

/** The modal service: `const modal = useModal(); if (await modal.confirm({...})) …`. */
export function useModal(): ModalStore {
  return useContext(ModalContext);
}
