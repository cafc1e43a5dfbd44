import type { ReactNode } from 'react';
import { AldaMark } from '@/shared/ui/icons';

/** The brand band at the top of the login screens: the sea, the mark and a heading. */
export function AuthHero({ children }: { children: ReactNode }) {
  return (
    <div className="relative overflow-hidden bg-linear-to-b from-ocean-900 via-ocean-800 to-ocean-700 text-white">
      <svg
        aria-hidden="true"
        viewBox="0 0 390 120"
        preserveAspectRatio="none"
        className="absolute inset-x-0 bottom-0 h-24 w-full text-ocean-600/40"
      >
        <path
          fill="currentColor"
          d="M0 70c40-18 80-18 120 0s80 18 120 0 80-18 120 0 20 8 30 6v44H0Z"
        />
        <path
          fill="currentColor"
          d="M0 92c40-14 80-14 120 0s80 14 120 0 80-14 120 0 20 6 30 4v24H0Z"
        />
      </svg>
      <div className="pt-safe relative">
        <div className="px-safe flex flex-col gap-3 pt-10 pb-16">
          <AldaMark className="size-12 text-fjord-300" />
          {children}
        </div>
      </div>
    </div>
  );
}
