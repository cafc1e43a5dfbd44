import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { formatDate } from '@alda/contract/format/date';
import type { ContentSlug } from '@alda/contract/schemas/content';
import { ApiRequestError } from '@/shared/api/http';
import { useErrorMessage } from '@/shared/i18n/use-error-message';
import { useLocale } from '@/shared/i18n/use-locale';
import { useAppServices } from '@/shared/services/app-services';
import { ErrorState } from '@/shared/ui/error-state';
import { ScreenBody, ScreenHeader } from '@/shared/ui/screen';
import { Skeleton } from '@/shared/ui/skeleton';
import { AppMarkdown } from './app-markdown';
import { contentQuery } from './content-query';
import { ROUTES } from '@/shared/config/paths';

/** Terms (/menu/treytir) and privacy (/menu/privatlivspolitikkur): markdown from the API. */
export function ContentScreen({ slug }: { slug: ContentSlug }) {
  const { t } = useTranslation();
  const errorMessage = useErrorMessage();
  const [locale] = useLocale();
  const { http } = useAppServices();
  const query = useQuery(contentQuery(http, slug, locale));
  const fallbackTitle = slug === 'terms' ? t('content.terms') : t('content.privacy');

  return (
    <main className="pb-footer min-h-dvh bg-mist-50">
      <ScreenHeader title={query.data?.title ?? fallbackTitle} back={ROUTES.menu} />
      <ScreenBody>
        {query.isPending && (
          <div
            role="status"
            aria-busy="true"
            aria-label={t('app.loading')}
            className="flex flex-col gap-3 rounded-card bg-white p-5 shadow-card"
          >
            <Skeleton className="h-6 w-2/3" />
            <Skeleton className="h-4 w-full" />
            <Skeleton className="h-4 w-full" />
            <Skeleton className="h-4 w-5/6" />
            <Skeleton className="mt-4 h-5 w-1/2" />
            <Skeleton className="h-4 w-full" />
            <Skeleton className="h-4 w-4/5" />
          </div>
        )}
        {query.isError && (
          <ErrorState
            message={`${t('content.error')} ${
              query.error instanceof ApiRequestError ? errorMessage(query.error.error) : ''
            }`.trim()}
            onRetry={() => void query.refetch()}
            retrying={query.isFetching}
          />
        )}
        {query.data && (
          <article className="flex flex-col gap-2 rounded-card bg-white p-5 shadow-card">
            <p className="text-caption text-mist-500">
              {t('content.updated', { date: formatDate(query.data.updatedAt) })}
            </p>
            <AppMarkdown markdown={query.data.markdown} />
          </article>
        )}
      </ScreenBody>
    </main>
  );
}

export function TermsScreen() {
  return <ContentScreen slug="terms" />;
}

export function PrivacyScreen() {
  return <ContentScreen slug="privacy" />;
}
