import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, NavLink, useParams } from 'react-router';
import { FilePen, Upload } from 'lucide-react';
import { formatDateTime } from '@alda/contract/format/date';
import { contentSlug, type ContentSlug } from '@alda/contract/schemas/content';
import type {
  ContentVersionState,
  StaffContentVersion,
  StaffContentVersionSummary,
} from '@alda/contract/schemas/staff-content';
import { cx } from '@/shared/cx';
import { useErrorText } from '@/shared/error-text';
import { Badge, type BadgeTone } from '@/shared/ui/badge';
import { Button } from '@/shared/ui/button';
import { DataTable, type DataColumn } from '@/shared/ui/data-table';
import { Notice } from '@/shared/ui/notice';
import { PageHeader } from '@/shared/ui/page-header';
import { QueryList } from '@/shared/ui/query-list';
import { UpdatedAt } from '@/shared/ui/updated-at';
import { useContentVersion, useContentVersions, usePublishVersion } from './content-api';
import { DraftEditor } from './draft-editor';
import { PublishDialog } from './publish-dialog';

/*
 * `/console/content/:slug` (issue 31 "Content: terms and privacy as versions (markdown, preview,
 * publish); the app shows the published version"): a tab per page, its versions (the live one
 * marked; refreshed every 5 s), and the editor — opened on the latest version: a draft is edited,
 * a published version starts a new draft prefilled from it. Publishing asks first.
 */

const SLUGS = contentSlug.options;

const TONES: Record<ContentVersionState, BadgeTone> = {
  draft: 'warning',
  live: 'success',
  previous: 'neutral',
};

type Done = { kind: 'saved' | 'published'; version: number };

/** `/console/content/:slug`; an unknown page goes to the terms. */
export function ContentScreen() {
  const { slug } = useParams();
  const parsed = contentSlug.safeParse(slug);
  if (!parsed.success) return <Navigate to="../terms" replace />;
  // A page of its own per slug: nothing of one page's editor is kept for the other.
  return <ContentPage key={parsed.data} slug={parsed.data} />;
}

function ContentPage({ slug }: { slug: ContentSlug }) {
  const { t } = useTranslation('content');
  const errorText = useErrorText();
  const versions = useContentVersions(slug);
  const publish = usePublishVersion(slug);
  const [chosenId, setChosenId] = useState<string | null>(null);
  const [publishing, setPublishing] = useState<StaffContentVersionSummary | null>(null);
  const [done, setDone] = useState<Done | null>(null);
  const doneRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    // Saving a new draft or publishing reopens the editor: the focus goes to what happened.
    if (done) doneRef.current?.focus();
  }, [done]);

  const items = useMemo(() => versions.data?.items ?? [], [versions.data]);
  // The latest version is opened once, when the list first comes: a colleague's new draft
  // arriving with a refresh does not take the editor away from the one typing.
  const latestId = items[0]?.id ?? null;
  if (chosenId === null && latestId !== null) setChosenId(latestId);
  const openId = chosenId ?? latestId;
  const open = useContentVersion(slug, openId);
  const page = t(`pages.${slug}`);

  const columns = useMemo<DataColumn<StaffContentVersionSummary>[]>(
    () => [
      {
        id: 'version',
        header: () => t('versions.columns.version'),
        cell: ({ row }) => (
          <span className="font-semibold whitespace-nowrap text-mist-900">
            {t('versions.number', { version: row.original.version })}
          </span>
        ),
      },
      {
        id: 'state',
        header: () => t('versions.columns.state'),
        cell: ({ row }) => (
          <Badge tone={TONES[row.original.state]}>{t(`state.${row.original.state}`)}</Badge>
        ),
      },
      {
        id: 'title',
        header: () => t('versions.columns.title'),
        cell: ({ row }) => (
          <div className="flex flex-col gap-0.5">
            <span lang="fo">{row.original.titleFo}</span>
            <span lang="en" className="text-mist-600">
              {row.original.titleEn}
            </span>
          </div>
        ),
      },
      {
        id: 'created',
        header: () => t('versions.columns.created'),
        cell: ({ row }) => <When at={row.original.createdAt} by={row.original.createdBy} />,
      },
      {
        id: 'published',
        header: () => t('versions.columns.published'),
        cell: ({ row }) =>
          row.original.publishedAt ? (
            <When at={row.original.publishedAt} by={row.original.publishedBy} />
          ) : (
            <span className="text-mist-600">{t('versions.notPublished')}</span>
          ),
      },
      {
        id: 'actions',
        header: () => <span className="sr-only">{t('versions.columns.actions')}</span>,
        cell: ({ row }) => {
          const version = row.original;
          const isOpen = version.id === openId;
          return (
            <div className="flex justify-end gap-2">
              <Button
                variant="ghost"
                size="sm"
                disabled={isOpen}
                icon={<FilePen aria-hidden="true" className="size-4" />}
                aria-label={
                  isOpen
                    ? t('versions.openedFor', { version: version.version })
                    : t('versions.openFor', { version: version.version })
                }
                onClick={() => {
                  setDone(null);
                  setChosenId(version.id);
                }}
              >
                {isOpen ? t('versions.opened') : t('versions.open')}
              </Button>
              {version.state === 'draft' ? (
                <Button
                  variant="secondary"
                  size="sm"
                  icon={<Upload aria-hidden="true" className="size-4" />}
                  aria-label={t('versions.publishFor', { version: version.version })}
                  onClick={() => {
                    publish.reset();
                    setPublishing(version);
                  }}
                >
                  {t('versions.publish')}
                </Button>
              ) : null}
            </div>
          );
        },
      },
    ],
    [t, openId, publish, setDone, setChosenId, setPublishing],
  );

  const openVersion: StaffContentVersion | undefined = open.data;

  return (
    <>
      <PageHeader title={t('title')} lead={t('lead')} />

      <nav aria-label={t('pages.label')} className="mb-6 border-b border-mist-200">
        <ul className="-mb-px flex gap-1">
          {SLUGS.map((each) => (
            <li key={each}>
              <NavLink
                to={`../${each}`}
                relative="path"
                className={({ isActive }) =>
                  cx(
                    'inline-flex min-h-11 items-center border-b-2 px-4 text-body font-semibold',
                    isActive
                      ? 'border-ocean-700 text-ocean-900'
                      : 'border-transparent text-mist-700 hover:border-mist-300 hover:text-ocean-900',
                  )
                }
              >
                {t(`pages.${each}`)}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>

      {done ? (
        // Where the result is said; it takes the focus (and comes into view) when it appears.
        <div ref={doneRef} tabIndex={-1} className="mb-4 focus:outline-none">
          <Notice tone="success">
            {done.kind === 'published'
              ? t('publish.done', { version: done.version, page })
              : t('editor.saved', { version: done.version })}
          </Notice>
        </div>
      ) : null}

      <section aria-labelledby="content-versions-heading" className="mb-10">
        <div className="mb-3 flex flex-wrap items-end justify-between gap-2">
          <h2 id="content-versions-heading" className="text-heading font-bold text-ocean-950">
            {t('versions.heading', { page })}
          </h2>
          {versions.data ? (
            <UpdatedAt at={versions.dataUpdatedAt} className="text-caption text-mist-600" />
          ) : null}
        </div>
        <QueryList
          query={versions}
          texts={{
            loading: t('versions.loading'),
            loadFailed: t('versions.loadFailed'),
            retry: t('versions.retry'),
          }}
        >
          <DataTable
            columns={columns}
            data={items}
            caption={t('versions.caption', { page })}
            getRowId={(row) => row.id}
            empty={t('versions.empty')}
          />
        </QueryList>
      </section>

      {openId ? (
        <section aria-labelledby="content-editor-heading">
          <h2 id="content-editor-heading" className="mb-2 text-heading font-bold text-ocean-950">
            {openVersion?.state === 'draft'
              ? t('editor.headingEdit', { version: openVersion.version })
              : t('editor.headingNew')}
          </h2>
          {open.isPending ? (
            <p role="status" className="py-8 text-center text-body text-mist-600">
              {t('editor.loading')}
            </p>
          ) : open.isError || !openVersion ? (
            <Notice tone="danger">
              <p>{t('editor.loadFailed')}</p>
              <p className="mt-1 font-normal">{errorText(open.error)}</p>
            </Notice>
          ) : (
            <DraftEditor
              // A new editor per version and kind: the texts start from what was opened.
              key={`${openVersion.id}:${openVersion.state === 'draft' ? 'edit' : 'new'}`}
              base={openVersion}
              onEdit={() => setDone(null)}
              onSaved={(version) => {
                setDone({ kind: 'saved', version: version.version });
                setChosenId(version.id);
              }}
              onPublish={(version) => {
                publish.reset();
                setPublishing(version);
              }}
            />
          )}
        </section>
      ) : null}

      {publishing ? (
        <PublishDialog
          version={publishing.version}
          page={page}
          pending={publish.isPending}
          error={publish.error}
          onClose={() => setPublishing(null)}
          onConfirm={(reason) =>
            publish.mutate(
              { id: publishing.id, reason },
              {
                onSuccess: (version) => {
                  setPublishing(null);
                  setDone({ kind: 'published', version: version.version });
                  setChosenId(version.id);
                },
              },
            )
          }
        />
      ) : null}
    </>
  );
}

function When({ at, by }: { at: string; by: string | null }) {
  const { t } = useTranslation('content');
  const who = by === 'system' ? t('versions.system') : (by?.replace(/^staff:/, '') ?? '');
  return (
    <div className="flex flex-col gap-0.5 whitespace-nowrap">
      <span>{formatDateTime(at)}</span>
      {who ? <span className="text-mist-600">{who}</span> : null}
    </div>
  );
}
