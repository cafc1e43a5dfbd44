import { useTranslation } from 'react-i18next';
import { ChevronDown, CircleHelp } from 'lucide-react';

/*
 * The support area's help (issue 46 "the console's help texts"): how the desk works, folded under
 * the page's heading so it is at hand without taking the room of the list. `inbox` explains the
 * queues, due times, notes, the audited customer context and saved replies; `savedReplies` the
 * content role's side of saved replies.
 */

const TOPICS = {
  inbox: ['queues', 'due', 'assign', 'notes', 'context', 'savedReplies', 'closing'],
  savedReplies: ['what', 'languages', 'picker', 'audit'],
} as const;

export function SupportHelp({ topic }: { topic: keyof typeof TOPICS }) {
  const { t } = useTranslation('support');
  return (
    <details className="group mb-6 rounded-xl border border-mist-200 bg-white">
      <summary className="flex min-h-11 cursor-pointer list-none items-center gap-2 rounded-xl px-4 text-caption font-semibold text-ocean-800 hover:bg-ocean-50 [&::-webkit-details-marker]:hidden">
        <CircleHelp aria-hidden="true" className="size-4 shrink-0" />
        {t(`help.${topic}.summary`)}
        <ChevronDown
          aria-hidden="true"
          className="ml-auto size-4 shrink-0 transition-transform group-open:rotate-180"
        />
      </summary>
      <dl className="flex max-w-3xl flex-col gap-3 border-t border-mist-200 px-4 py-4 text-caption text-mist-700">
        {topic === 'inbox'
          ? TOPICS.inbox.map((part) => (
              <div key={part}>
                <dt className="font-semibold text-mist-900">{t(`help.inbox.${part}.title`)}</dt>
                <dd className="mt-0.5">{t(`help.inbox.${part}.body`)}</dd>
              </div>
            ))
          : TOPICS.savedReplies.map((part) => (
              <div key={part}>
                <dt className="font-semibold text-mist-900">
                  {t(`help.savedReplies.${part}.title`)}
                </dt>
                <dd className="mt-0.5">{t(`help.savedReplies.${part}.body`)}</dd>
              </div>
            ))}
      </dl>
    </details>
  );
}
