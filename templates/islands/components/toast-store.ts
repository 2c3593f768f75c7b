import { signal } from '@preact/signals-react';

/** One notification. `destructive` toasts report failures and are announced as alerts. */
export interface Toast {
  id: number;
  variant: 'default' | 'destructive';
  title: string;
  description: string;
}

/** How long a toast stays before it is removed by itself (spec: 1,000,000 ms, i.e. until dismissed). */
export const TOAST_REMOVE_DELAY_MS = 1_000_000;

/** The toast on screen: at most one at a time; showing a new one replaces the old. */
export const currentToast = signal<Toast | null>(null);

let nextId = 1;

/** Shows a toast, replacing any toast already on screen. */
export function showToast(toast: Omit<Toast, 'id'>): void {
  currentToast.value = { ...toast, id: nextId++ };
}

/** Removes the toast on screen. */
export function dismissToast(): void {
  currentToast.value = null;
}
