import { render, type RenderResult } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import type { Locale } from '@alda/contract/locale';
import type { StaffRole, StaffSession } from '@alda/contract/schemas/staff';
import { ConsoleProviders } from '@/app/app';
import { createConsoleRoutes } from '@/app/routes';
import { createApi, type Api } from '@/shared/api';
import { createI18n, localeOf } from '@/shared/i18n';
import { createQueryClient } from '@/shared/query-client';
import { createSessionStore, SESSION_KEY, type SessionStore } from '@/shared/session';

/** One call the console made, as the fake server saw it. */
export interface Call {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: unknown;
}

type Answer = { status: number; body?: unknown; headers?: Record<string, string> };
/** The fake server: an answer per call (`undefined` → 404 ROUTE_NOT_FOUND). */
export type Handler = (call: Call) => Answer | undefined | Promise<Answer | undefined>;

/** A `fetch` that answers from `handler` and records every call. */
export function fakeFetch(handler: Handler): { fetch: typeof fetch; calls: Call[] } {
  const calls: Call[] = [];
  const fetchImpl = async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const headers = Object.fromEntries(
      Object.entries((init.headers ?? {}) as Record<string, string>).map(([k, v]) => [
        k.toLowerCase(),
        v,
      ]),
    );
    const call: Call = {
      method: init.method ?? 'GET',
      path: String(input),
      headers,
      body: typeof init.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined,
    };
    calls.push(call);
    const answer = (await handler(call)) ?? {
      status: 404,
      body: { error: { code: 'ROUTE_NOT_FOUND', message: 'Not found' } },
    };
    return new Response(answer.body === undefined ? null : JSON.stringify(answer.body), {
      status: answer.status,
      headers: { 'content-type': 'application/json', ...answer.headers },
    });
  };
  return { fetch: fetchImpl as typeof fetch, calls };
}

/** A storage like `sessionStorage`, of the test's own. */
export function memoryStorage(items: Record<string, string> = {}) {
  const map = new Map(Object.entries(items));
  return {
    getItem: (key: string) => map.get(key) ?? null,
    setItem: (key: string, value: string) => void map.set(key, value),
    removeItem: (key: string) => void map.delete(key),
    map,
  };
}

/** A live session of `role` (15 min idle, 8 h at most from now). */
export function aSession(
  role: StaffRole = 'support',
  token = 'alda_staff_test-token',
): StaffSession {
  const now = Date.now();
  return {
    token,
    idleExpiresAt: new Date(now + 15 * 60_000).toISOString(),
    expiresAt: new Date(now + 8 * 3_600_000).toISOString(),
    staff: {
      id: '0b6c1d2e-3f40-4a5b-8c6d-7e8f9a0b1c2d',
      email: `${role}@alda.fo`,
      name: 'Sólrun Joensen',
      role,
      disabledAt: null,
      createdAt: '2026-01-05T09:00:00.000Z',
    },
  };
}

export interface RenderedConsole extends RenderResult {
  session: SessionStore;
  api: Api;
  calls: Call[];
  router: ReturnType<typeof createMemoryRouter>;
}

/** The whole console at `path` (under its base), against `handler` as the API. */
export function renderConsole({
  path = '/',
  session,
  handler = () => undefined,
  locale = 'fo',
}: {
  path?: string;
  session?: StaffSession;
  handler?: Handler;
  locale?: Locale;
} = {}): RenderedConsole {
  const storage = memoryStorage(session ? { [SESSION_KEY]: JSON.stringify(session) } : {});
  const store = createSessionStore(storage);
  const i18n = createI18n(locale);
  const { fetch, calls } = fakeFetch(handler);
  const api = createApi({ session: store, locale: () => localeOf(i18n), fetch });
  const router = createMemoryRouter(createConsoleRoutes(), { initialEntries: [path] });
  const result = render(
    <ConsoleProviders
      services={{ api, session: store }}
      queryClient={createQueryClient()}
      i18n={i18n}
    >
      <RouterProvider router={router} />
    </ConsoleProviders>,
  );
  return { ...result, session: store, api, calls, router };
}
