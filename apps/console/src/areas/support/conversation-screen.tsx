import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useParams } from 'react-router';
import { ArrowLeft, CircleCheckBig, RefreshCw, Star, UserCheck, UserPlus } from 'lucide-react';
import {
  SUPPORT_QUEUES,
  type StaffSupportConversation,
  type SupportQueue,
} from '@alda/contract/schemas/staff-support';
import { isApiError } from '@/shared/api';
import { useErrorText } from '@/shared/error-text';
import { useSession } from '@/shared/services';
import { Button } from '@/shared/ui/button';
import { ModalDialog } from '@/shared/ui/modal-dialog';
import { Notice } from '@/shared/ui/notice';
import { PageHeader } from '@/shared/ui/page-header';
import { FieldFrame } from '@/shared/ui/text-field';
import { UpdatedAt } from '@/shared/ui/updated-at';
import { Composer } from './composer';
import { ContextPanel } from './context-panel';
import { formatDateTime } from './format';
import { LateBadge, StateBadge, useCustomerLabel, useSubjectText } from './parts';
import {
  useAssignSupport,
  useCloseSupport,
  useSupportContext,
  useSupportConversation,
  useSupportDesk,
} from './support-api';
import { Thread } from './thread';

/*
 * `/console/support/:id` (issue 46): one conversation — the thread with its internal notes,
 * refreshed every 10 s while open; the composer (answer or internal note, saved replies in the
 * customer's language); assign to oneself or a colleague; close (asked first). Beside the thread on
 * a wide screen, under it on a narrow one: the customer's context.
 */

const isQueue = (value: unknown): value is SupportQueue =>
  typeof value === 'string' && (SUPPORT_QUEUES as readonly string[]).includes(value);

/** Back to the queue the conversation was opened from (the inbox passes it along). */
function BackLink() {
  const { t } = useTranslation('support');
  const { state } = useLocation();
  const from: unknown =
    typeof state === 'object' && state !== null && 'queue' in state ? state.queue : undefined;
  const search = isQueue(from) && from !== 'new' ? `?queue=${from}` : '';
  return (
    <Link
      to={{ pathname: '..', search }}
      relative="path"
      className="mb-3 inline-flex items-center gap-1.5 text-caption font-semibold text-ocean-700 hover:text-ocean-900"
    >
      <ArrowLeft aria-hidden="true" className="size-4" />
      {t('conversation.back')}
    </Link>
  );
}

export function ConversationScreen() {
  const { id = '' } = useParams();
  // A screen of its own per conversation: nothing typed for one is kept for the next.
  return <ConversationPage key={id} id={id} />;
}

function ConversationPage({ id }: { id: string }) {
  const { t } = useTranslation('support');
  const errorText = useErrorText();
  const conversation = useSupportConversation(id);
  const context = useSupportContext(id);
  const customerLabel = useCustomerLabel();
  const subjectText = useSubjectText();

  if (conversation.isPending)
    return (
      <>
        <BackLink />
        <PageHeader title={t('conversation.loadingTitle')} />
        <p role="status" className="py-8 text-center text-body text-mist-600">
          {t('conversation.loading')}
        </p>
      </>
    );

  if (!conversation.data)
    return (
      <>
        <BackLink />
        <PageHeader title={t('conversation.failedTitle')} />
        <Notice tone="danger">
          <p>
            {isApiError(conversation.error, 'NOT_FOUND')
              ? t('conversation.notFound')
              : t('conversation.failed')}
          </p>
          <p className="mt-1 font-normal">{errorText(conversation.error)}</p>
          <Button
            variant="secondary"
            size="sm"
            className="mt-3"
            icon={<RefreshCw aria-hidden="true" className="size-4" />}
            onClick={() => void conversation.refetch()}
          >
            {t('conversation.retry')}
          </Button>
        </Notice>
      </>
    );

  const thread = conversation.data;
  const customer = customerLabel(thread.customerName);

  return (
    <>
      <BackLink />
      <PageHeader
        title={customer}
        lead={subjectText(thread.subject)}
        actions={
          <UpdatedAt
            at={conversation.dataUpdatedAt}
            className="text-caption text-mist-600"
            aria-live="off"
          />
        }
      />
      {conversation.isError ? (
        <Notice tone="danger" className="mb-4">
          {errorText(conversation.error)}
        </Notice>
      ) : null}

      <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_20rem] xl:grid-cols-[minmax(0,1fr)_24rem]">
        <div className="flex min-w-0 flex-col gap-5">
          <Standing thread={thread} />
          <section aria-labelledby="support-thread-heading" className="flex flex-col gap-3">
            <h2 id="support-thread-heading" className="text-heading font-bold text-ocean-950">
              {t('thread.heading')}
            </h2>
            <Thread messages={thread.messages} customerName={customer} />
          </section>
          <Composer conversationId={id} customerLocale={context.data?.customer?.locale ?? null} />
        </div>
        <ContextPanel context={context} />
      </div>
    </>
  );
}

/**
 * Where the conversation stands and who has it: its state, due time or late, the assignee; Assign
 * to me, Assign to a colleague, Close conversation; once closed, when, and the customer's rating.
 */
function Standing({ thread }: { thread: StaffSupportConversation }) {
  const { t } = useTranslation('support');
  const errorText = useErrorText();
  const session = useSession();
  const me = session?.staff.id ?? null;
  const assign = useAssignSupport(thread.id);
  const close = useCloseSupport(thread.id);
  const [closing, setClosing] = useState(false);
  const [done, setDone] = useState<string | null>(null);
  const mine = thread.assignee !== null && thread.assignee.id === me;

  const assignTo = (staffUserId: string) => {
    setDone(null);
    assign.mutate(staffUserId, {
      onSuccess: (answer) =>
        setDone(
          answer.assignee?.id === me
            ? t('assign.doneMe')
            : t('assign.done', { name: answer.assignee?.name ?? '' }),
        ),
    });
  };

  return (
    <section
      aria-label={t('standing.label')}
      className="flex flex-col gap-3 rounded-xl border border-mist-200 bg-white p-4"
    >
      <div className="flex flex-wrap items-center gap-x-4 gap-y-2 text-caption">
        <StateBadge state={thread.state} />
        {thread.firstReplyAt ? (
          <span className="text-mist-700">
            {t('standing.answered', { time: formatDateTime(thread.firstReplyAt) })}
          </span>
        ) : (
          <span className="flex flex-wrap items-center gap-2 text-mist-700">
            {t('standing.due', { time: formatDateTime(thread.firstReplyDueAt) })}
            {thread.late ? <LateBadge /> : null}
          </span>
        )}
        <span className="font-medium text-mist-900">
          {thread.assignee
            ? mine
              ? t('standing.mine')
              : t('standing.assignee', { name: thread.assignee.name })
            : t('standing.unassigned')}
        </span>
      </div>

      {thread.state === 'closed' ? (
        <p className="flex flex-wrap items-center gap-2 text-caption text-mist-700">
          {thread.closedAt
            ? t('standing.closedAt', { time: formatDateTime(thread.closedAt) })
            : t('state.closed')}
          {thread.rating ? (
            <span className="inline-flex items-center gap-1 font-medium text-mist-900">
              <Star aria-hidden="true" className="size-3.5" />
              {thread.rating.comment
                ? t('standing.ratingWithComment', {
                    score: thread.rating.score,
                    comment: thread.rating.comment,
                  })
                : t('standing.rating', { score: thread.rating.score })}
            </span>
          ) : null}
        </p>
      ) : null}

      <div className="flex flex-wrap items-end gap-3">
        {me && !mine ? (
          <Button
            variant="secondary"
            size="sm"
            pending={assign.isPending && assign.variables === me}
            disabled={assign.isPending}
            icon={<UserCheck aria-hidden="true" className="size-4" />}
            onClick={() => assignTo(me)}
          >
            {t('assign.toMe')}
          </Button>
        ) : null}
        <ColleagueForm
          exclude={[me, thread.assignee?.id ?? null]}
          pending={assign.isPending}
          onAssign={assignTo}
        />
        {thread.state !== 'closed' ? (
          <Button
            variant="ghost"
            size="sm"
            className="ml-auto"
            icon={<CircleCheckBig aria-hidden="true" className="size-4" />}
            onClick={() => {
              close.reset();
              setClosing(true);
            }}
          >
            {t('close.button')}
          </Button>
        ) : null}
      </div>

      {assign.isError ? <Notice tone="danger">{errorText(assign.error)}</Notice> : null}
      {done ? <Notice tone="success">{done}</Notice> : null}

      {closing ? (
        <ModalDialog
          title={t('close.title')}
          lead={t('close.lead')}
          leadDescribes
          pending={close.isPending}
          onClose={() => setClosing(false)}
        >
          <div className="flex flex-col gap-4">
            {close.isPending ? (
              <p role="status" className="text-caption font-medium text-ocean-800">
                {t('close.pending')}
              </p>
            ) : null}
            {close.isError ? <Notice tone="danger">{errorText(close.error)}</Notice> : null}
            <div className="flex flex-wrap justify-end gap-2">
              <Button
                variant="secondary"
                disabled={close.isPending}
                onClick={() => setClosing(false)}
              >
                {t('close.cancel')}
              </Button>
              <Button
                pending={close.isPending}
                onClick={() =>
                  close.mutate(undefined, {
                    onSuccess: () => {
                      setClosing(false);
                      setDone(t('close.done'));
                    },
                  })
                }
              >
                {t('close.confirm')}
              </Button>
            </div>
          </div>
        </ModalDialog>
      ) : null}
    </section>
  );
}

/** "Assign to a colleague": the desk's other members (not oneself, not who has it now). */
function ColleagueForm({
  exclude,
  pending,
  onAssign,
}: {
  exclude: Array<string | null>;
  pending: boolean;
  onAssign: (staffUserId: string) => void;
}) {
  const { t } = useTranslation('support');
  const desk = useSupportDesk();
  const [chosen, setChosen] = useState('');
  const colleagues = (desk.data?.items ?? []).filter((member) => !exclude.includes(member.id));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (chosen && !pending) onAssign(chosen);
  };

  if (desk.isError) return <p className="text-caption text-mist-600">{t('assign.deskFailed')}</p>;
  if (colleagues.length === 0) return null;
  return (
    <form noValidate onSubmit={submit} className="flex flex-wrap items-end gap-2">
      <FieldFrame label={t('assign.colleague')} className="min-w-48">
        {(control) => (
          <select
            {...control}
            value={chosen}
            onChange={(event) => setChosen(event.target.value)}
            className="min-h-9 rounded-lg border border-mist-300 bg-white px-3 text-caption text-mist-900 hover:border-mist-400"
          >
            <option value="">{t('assign.choose')}</option>
            {colleagues.map((member) => (
              <option key={member.id} value={member.id}>
                {member.name}
              </option>
            ))}
          </select>
        )}
      </FieldFrame>
      <Button
        type="submit"
        variant="secondary"
        size="sm"
        disabled={!chosen || pending}
        icon={<UserPlus aria-hidden="true" className="size-4" />}
      >
        {t('assign.submit')}
      </Button>
    </form>
  );
}
