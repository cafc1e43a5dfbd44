import { useEffect } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useLocation, useNavigate, useParams, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { EmptyState, QueryPending } from '@/shared/account/screen-states';
import { href, ROUTES } from '@/shared/config/paths';
import { useAppServices, useSession } from '@/shared/services/app-services';
import { supportKeys, supportListQuery } from '@/shared/support/support-queries';
import { newConversationHref } from '@/shared/support/write-to-us-link';
import { ButtonLink } from '@/shared/ui/button';
import { Card } from '@/shared/ui/card';
import { ErrorState } from '@/shared/ui/error-state';
import { MessageIcon } from '@/shared/ui/icons';
import { ScreenBody, ScreenHeader } from '@/shared/ui/screen';
import { Skeleton } from '@/shared/ui/skeleton';
import { Composer } from './composer';
import { ConversationRow, WaitingRow } from './conversation-rows';
import { conversationChanged, keepMessage, useOutboxSender } from './outbox';
import { subjectFromQuery, subjectLine } from './subject';
import { supportApi, threadQuery } from './support-api';
import { useSupportLive } from './support-live';
import { Thread } from './thread';

/*
 * The support screens (issue 46, ADR 0088), one module so that the three routes share one chunk:
 * the list, a new conversation and a thread. Their parts live in the modules beside it.
 */

/**
 * /menu/skriva-til-okkum: the customer's conversations with the desk, latest activity first, and
 * the new ones written offline that wait to be sent. Live over the support hub; every 60 s
 * without it.
 */
export function SupportListScreen() {
  const { t } = useTranslation();
  const { http } = useAppServices();
  const refetchInterval = useSupportLive();
  const query = useQuery({ ...supportListQuery(http), staleTime: 0, refetchInterval });
  const waiting = useOutboxSender().filter((entry) => entry.conversationId === null);
  const items = query.data?.items ?? [];

  const body = () => {
    if (query.data === undefined && waiting.length === 0) {
      if (query.isError)
        return (
          <ErrorState
            message={t('support.list.loadFailed')}
            onRetry={() => void query.refetch()}
            retrying={query.isFetching}
          />
        );
      return (
        <div aria-busy="true" aria-label={t('app.loading')} className="flex flex-col gap-3">
          <Skeleton className="h-24 rounded-card" />
          <Skeleton className="h-24 rounded-card" />
        </div>
      );
    }
    if (items.length === 0 && waiting.length === 0)
      return (
        <EmptyState
          icon={<MessageIcon />}
          title={t('support.list.emptyTitle')}
          body={t('support.list.emptyBody')}
          action={
            <ButtonLink to={newConversationHref()} icon={<MessageIcon className="size-5" />}>
              {t('support.title')}
            </ButtonLink>
          }
        />
      );
    return (
      <>
        <ButtonLink
          to={newConversationHref()}
          variant="secondary"
          block
          icon={<MessageIcon className="size-5" />}
        >
          {t('support.list.new')}
        </ButtonLink>
        {query.isError && (
          <ErrorState
            message={t('support.list.loadFailed')}
            onRetry={() => void query.refetch()}
            retrying={query.isFetching}
          />
        )}
        <ul className="flex flex-col gap-2">
          {waiting.map((entry) => (
            <li key={entry.clientId}>
              <WaitingRow entry={entry} />
            </li>
          ))}
          {items.map((item) => (
            <li key={item.id}>
              <ConversationRow item={item} />
            </li>
          ))}
        </ul>
      </>
    );
  };

  return (
    <main className="pb-footer min-h-dvh bg-mist-50">
      <ScreenHeader title={t('support.title')} back={ROUTES.menu} />
      <ScreenBody>{body()}</ScreenBody>
    </main>
  );
}

/**
 * /menu/skriva-til-okkum/nytt: a new conversation, from the menu (general) or from an item's
 * screen with the item filled in; on success the thread opens. Written offline, it waits on the
 * device (the list shows it) and goes when the connection is back.
 */
export function SupportNewScreen() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const { http } = useAppServices();
  const queryClient = useQueryClient();
  const userId = useSession().user?.id ?? null;
  useOutboxSender();
  const { subject, shown } = subjectFromQuery(params);
  // A message a closed conversation would not take comes along (thread.tsx).
  const state: unknown = useLocation().state;
  const draft =
    typeof state === 'object' &&
    state !== null &&
    'draft' in state &&
    typeof state.draft === 'string'
      ? state.draft
      : '';

  return (
    <main className="min-h-dvh bg-mist-50">
      <ScreenHeader title={t('support.title')} back />
      <ScreenBody>
        <Card className="flex flex-col gap-1">
          <p className="text-caption text-mist-600">{t('support.new.about')}</p>
          <p className="text-lead font-bold text-ocean-950">{subjectLine(t, shown)}</p>
        </Card>
        <p className="text-body text-mist-700">{t('support.new.lead')}</p>
        <Composer
          label={t('support.composer.label')}
          initialBody={draft}
          send={({ attachmentIds, ...message }) =>
            supportApi.start(http, {
              subject,
              ...message,
              ...(attachmentIds.length > 0 ? { attachmentIds } : {}),
            })
          }
          keep={(message) => {
            if (userId)
              keepMessage(userId, {
                ...message,
                conversationId: null,
                subject,
                reference: shown.reference,
              });
          }}
          onKept={() => void navigate(ROUTES.support, { replace: true })}
          onSent={(conversation) => {
            conversationChanged(queryClient, conversation);
            void navigate(href(ROUTES.supportThread, { conversationId: conversation.id }), {
              replace: true,
            });
          }}
        />
      </ScreenBody>
    </main>
  );
}

/**
 * /menu/skriva-til-okkum/:conversationId: one conversation (thread.tsx). Answers arrive live over
 * the support hub (every 60 s without it) and are marked read when the thread opens and whenever
 * a new one arrives while it is open.
 */
export function SupportThreadScreen() {
  const { conversationId = '' } = useParams();
  const { t } = useTranslation();
  const { http } = useAppServices();
  const queryClient = useQueryClient();
  const refetchInterval = useSupportLive();
  const query = useQuery({ ...threadQuery(http, conversationId), refetchInterval });
  const kept = useOutboxSender().filter((entry) => entry.conversationId === conversationId);
  const conversation = query.data;

  const lastAnswer = conversation?.messages.filter((m) => m.author === 'staff').at(-1)?.id ?? null;
  const loaded = conversation !== undefined;
  useEffect(() => {
    if (!loaded) return;
    void supportApi.markRead(http, conversationId).then((result) => {
      if (result.ok) void queryClient.invalidateQueries({ queryKey: supportKeys.list });
    });
  }, [loaded, lastAnswer, conversationId, http, queryClient]);

  return (
    <main className="min-h-dvh bg-mist-50">
      <ScreenHeader
        title={conversation ? subjectLine(t, conversation.subject) : t('support.thread.title')}
        back={ROUTES.support}
      />
      <ScreenBody>
        {conversation ? (
          <Thread conversation={conversation} kept={kept} />
        ) : (
          <QueryPending query={query} failedMessage={t('support.thread.loadFailed')} />
        )}
      </ScreenBody>
    </main>
  );
}
