import type { RouteObject } from 'react-router';

/*
 * The support desk (issue 46), two areas of areas.ts with their own roles:
 *   /console/support             the inbox, in queues (support, admin)
 *   /console/support/:id         one conversation with the customer's context
 *   /console/saved-replies       the saved replies, written in both languages (content, admin)
 */

export const supportRoutes: RouteObject[] = [
  {
    index: true,
    lazy: () => import('./inbox-screen').then((m) => ({ Component: m.InboxScreen })),
  },
  {
    path: ':id',
    lazy: () => import('./conversation-screen').then((m) => ({ Component: m.ConversationScreen })),
  },
];

export const savedRepliesRoutes: RouteObject[] = [
  {
    index: true,
    lazy: () => import('./saved-replies-screen').then((m) => ({ Component: m.SavedRepliesScreen })),
  },
];
