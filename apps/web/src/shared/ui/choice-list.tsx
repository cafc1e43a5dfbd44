import { cx } from './cx';
import { CheckIcon } from './icons';

export interface Choice<T extends string> {
  value: T;
  label: string;
  /** The language of the label, when it is not the screen's (a language's own name). */
  lang?: string;
}

/**
 * One of a few settings (the language, the theme): a radio group of full-width rows, the chosen
 * one ticked. Chosen at a tap; the owner keeps the choice.
 */
export function ChoiceList<T extends string>({
  choices,
  chosen,
  onChoose,
  labelledBy,
}: {
  choices: readonly Choice<T>[];
  chosen: T;
  onChoose: (value: T) => void;
  /** Id of the text that says what is chosen here. */
  labelledBy: string;
}) {
  return (
    <div
      role="radiogroup"
      aria-labelledby={labelledBy}
      className="divide-y divide-mist-100 overflow-hidden rounded-card bg-white shadow-card"
    >
      {choices.map((choice) => {
        const selected = choice.value === chosen;
        return (
          <button
            key={choice.value}
            type="button"
            role="radio"
            aria-checked={selected}
            lang={choice.lang}
            onClick={() => onChoose(choice.value)}
            className={cx(
              'flex min-h-15 w-full items-center gap-4 px-4 py-3 text-left transition-colors hover:bg-mist-50',
              selected && 'bg-fjord-50/60',
            )}
          >
            <span className="flex-1 text-body font-medium text-mist-900">{choice.label}</span>
            <span
              className={cx(
                'flex size-6 items-center justify-center rounded-full border-2',
                selected ? 'border-fjord-500 bg-fjord-500 text-white' : 'border-mist-300',
              )}
            >
              {selected && <CheckIcon className="size-4" strokeWidth={3} />}
            </span>
          </button>
        );
      })}
    </div>
  );
}
