import type { FormEvent, ReactNode } from 'react';
import { Search, X } from 'lucide-react';
import { Button } from './button';

/**
 * A list's search above it: its fields (`children`), the search button and, while a search is
 * applied, the button that clears it (`clear`, its text).
 */
export function SearchForm({
  onSubmit,
  submit,
  clear,
  onClear,
  children,
}: {
  onSubmit: (event: FormEvent) => void;
  submit: string;
  /** The clear button's text; none while nothing is searched. */
  clear?: string | null;
  onClear: () => void;
  children: ReactNode;
}) {
  return (
    <form
      role="search"
      onSubmit={onSubmit}
      className="mb-5 flex flex-wrap items-end gap-3 rounded-xl border border-mist-200 bg-white p-4"
    >
      {children}
      <div className="flex gap-2 self-start pt-6">
        <Button type="submit" icon={<Search aria-hidden="true" className="size-4" />}>
          {submit}
        </Button>
        {clear ? (
          <Button
            variant="ghost"
            icon={<X aria-hidden="true" className="size-4" />}
            onClick={onClear}
          >
            {clear}
          </Button>
        ) : null}
      </div>
    </form>
  );
}
