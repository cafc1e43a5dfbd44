import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ContentSlug } from '@alda/contract/schemas/content';
import {
  staffContentVersion,
  staffContentVersionList,
  type StaffContentDraftRequest,
} from '@alda/contract/schemas/staff-content';
import { useApi } from '@/shared/services';
import { LIVE_REFRESH_MS } from '@/shared/query-client';

/*
 * The content area's calls (`/api/staff/content/:slug/versions*`,
 * docs/decisions/0075-staff-console.md). The versions list refreshes every 5 s (a colleague's
 * draft or publication shows up); one version's texts are read once per version — the editor
 * must not be reset under the hands of the one typing.
 */

const versionsPath = (slug: ContentSlug) =>
  `/api/staff/content/${encodeURIComponent(slug)}/versions`;
const versionPath = (slug: ContentSlug, id: string) =>
  `${versionsPath(slug)}/${encodeURIComponent(id)}`;

export const contentKeys = {
  all: ['staff', 'content'] as const,
  page: (slug: ContentSlug) => ['staff', 'content', slug] as const,
  list: (slug: ContentSlug) => ['staff', 'content', slug, 'list'] as const,
  one: (slug: ContentSlug, id: string) => ['staff', 'content', slug, 'one', id] as const,
};

export function useContentVersions(slug: ContentSlug) {
  const api = useApi();
  return useQuery({
    queryKey: contentKeys.list(slug),
    queryFn: ({ signal }) =>
      api.get(versionsPath(slug), { schema: staffContentVersionList, signal }),
    refetchInterval: LIVE_REFRESH_MS,
  });
}

export function useContentVersion(slug: ContentSlug, id: string | null) {
  const api = useApi();
  return useQuery({
    queryKey: contentKeys.one(slug, id ?? ''),
    queryFn: ({ signal }) =>
      api.get(versionPath(slug, id ?? ''), { schema: staffContentVersion, signal }),
    enabled: id !== null,
    staleTime: Infinity,
  });
}

/** Saves a draft: a new one (no id) or the texts of an existing draft. */
export function useSaveDraft(slug: ContentSlug) {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, texts }: { id: string | null; texts: StaffContentDraftRequest }) =>
      id
        ? api.put(versionPath(slug, id), texts, { schema: staffContentVersion })
        : api.post(versionsPath(slug), texts, { schema: staffContentVersion }),
    onSuccess: (version) => queryClient.setQueryData(contentKeys.one(slug, version.id), version),
    onSettled: () => queryClient.invalidateQueries({ queryKey: contentKeys.list(slug) }),
  });
}

export function usePublishVersion(slug: ContentSlug) {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, reason }: { id: string; reason?: string }) =>
      api.post(`${versionPath(slug, id)}/publish`, reason ? { reason } : {}, {
        schema: staffContentVersion,
      }),
    onSuccess: (version) => queryClient.setQueryData(contentKeys.one(slug, version.id), version),
    // The states of the page's versions move (live → previous): the list and each version.
    onSettled: () => queryClient.invalidateQueries({ queryKey: contentKeys.page(slug) }),
  });
}
