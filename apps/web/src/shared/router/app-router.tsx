/**
 * The app's router: React Router in declarative mode (`unstable_HistoryRouter` + `useRoutes`)
 * with the few data-router features the app used, on the history it owns (ADR 0089).
 *
 * Why not the data router: `createBrowserRouter` and `RouterProvider` cost 17.3 KiB gzip in the
 * initial JS (issue 45, measured: home 189.4 → 172.1 KiB with the declarative mode alone), and
 * the app used only four of its features. They are here instead:
 * - guards (were loaders): a route's `guard` says where to send the visitor, before its screen's
 *   chunk is even asked for;
 * - lazy screens: a route's `lazy` chunk, loaded once (a preload and the render share it), shown
 *   inside a transition, so the screen before stays until the next one is ready;
 * - blocking (was `useBlocker`): the unsaved-changes question, for links, `navigate` and the
 *   browser's back button (a blocked back is undone with `history.go`, as React Router does);
 * - scroll restoration: the top for a new screen, the kept position for back and forward.
 */
import {
  Component,
  createContext,
  Suspense,
  use,
  useContext,
  useEffect,
  useLayoutEffect,
  useState,
  useSyncExternalStore,
  type ComponentType,
  type ReactNode,
} from 'react';
import {
  matchRoutes,
  Navigate,
  Outlet,
  parsePath,
  renderMatches,
  unstable_HistoryRouter as HistoryRouter,
  UNSAFE_createBrowserHistory as createBrowserHistory,
  UNSAFE_createMemoryHistory as createMemoryHistory,
  useLocation,
  useNavigationType,
  type Location,
  type RouteObject,
  type To,
} from 'react-router';

type History = ReturnType<typeof createBrowserHistory>;
type Update = Parameters<Parameters<History['listen']>[0]>[0];

/** A route of the app: React Router's route fields plus the few the data router gave us. */
export interface AppRoute {
  id?: string;
  path?: string;
  index?: boolean;
  /** Per-route flags (footer, title): read with {@link useRouteHandles}. */
  handle?: unknown;
  /** Where to send the visitor instead of this route (and its children), or null to show it. */
  guard?: () => string | null;
  /** The screen's chunk, loaded when the route is first shown (or preloaded). */
  lazy?: () => Promise<{ Component: ComponentType }>;
  Component?: ComponentType;
  element?: ReactNode;
  /** Shown while the route's first screen loads (the app's first render). */
  HydrateFallback?: ComponentType;
  /** Shown when rendering the route or loading a chunk below it fails. */
  ErrorBoundary?: ComponentType<{ error: unknown }>;
  children?: AppRoute[];
}

export interface BlockerArgs {
  currentLocation: Location;
  nextLocation: Location;
}
export type Blocker =
  | { state: 'unblocked'; proceed?: undefined; reset?: undefined }
  | { state: 'blocked'; proceed: () => void; reset: () => void };

export interface RouterState {
  readonly location: Location;
  /** True once the first screen has been shown. */
  initialized: boolean;
}

export interface AppRouter {
  readonly routes: AppRoute[];
  readonly history: History;
  readonly state: RouterState;
  /** Called after each change of location and when the first screen has been shown. */
  subscribe(listener: (state: RouterState) => void): () => void;
  navigate(to: To | number, options?: { replace?: boolean }): Promise<void>;
  /** Resolves once the first location's screen chunks have loaded (or failed to). */
  ready(): Promise<void>;
}

interface Internal extends AppRouter {
  objects: RouteObject[];
  setBlocker(fn: ((args: BlockerArgs) => boolean) | null, onBlock?: (b: Blocker) => void): void;
  shown(): void;
  scroll: Map<string, number>;
}

const RouterContext = createContext<Internal | null>(null);
function useRouter(): Internal {
  const router = useContext(RouterContext);
  if (!router) throw new Error('useRouter outside <RouterView>');
  return router;
}

/** Screen chunks, one promise per route, shared by preloads, navigations and renders. */
const screens = new WeakMap<AppRoute, Tracked<{ Component: ComponentType }>>();
type Tracked<T> = Promise<T> & { status?: 'fulfilled' | 'rejected'; value?: T; reason?: unknown };

/**
 * Starts (or joins) the loading of a route's screen chunk; a load that failed starts again.
 * The promise carries its outcome, so React's `use` shows a loaded screen without suspending.
 */
export function loadScreen(route: AppRoute): Promise<{ Component: ComponentType }> | undefined {
  if (!route.lazy) return undefined;
  let promise = screens.get(route);
  if (!promise || promise.status === 'rejected') {
    const started: Tracked<{ Component: ComponentType }> = route.lazy();
    promise = started;
    screens.set(route, started);
    started.then(
      (value) => {
        started.status = 'fulfilled';
        started.value = value;
      },
      (reason: unknown) => {
        started.status = 'rejected';
        started.reason = reason;
      },
    );
  }
  return promise;
}

/**
 * What must load before `pathname` is shown: the screen chunks of its routes, down to the first
 * route whose guard sends the visitor elsewhere (that screen is never asked for). Null when all
 * is there, so the navigation happens at once.
 */
function pending(routes: AppRoute[], pathname: string): Promise<unknown> | null {
  const loads: Promise<unknown>[] = [];
  for (const route of matchAppRoutes(routes, pathname)) {
    if (route.guard?.()) break;
    const load = loadScreen(route) as Tracked<unknown> | undefined;
    if (load && load.status === undefined) loads.push(load);
  }
  return loads.length > 0 ? Promise.allSettled(loads) : null;
}

/** Where the first guard on the way to `pathname` sends the visitor, or null to stay. */
function redirectOf(routes: AppRoute[], pathname: string): string | null {
  for (const route of matchAppRoutes(routes, pathname)) {
    const to = route.guard?.();
    if (to) return to !== pathname ? to : null;
  }
  return null;
}

function LazyScreen({ route }: { route: AppRoute }) {
  // The load the navigation waited for (a failed one throws to the error boundary).
  const { Component: Screen } = use(screens.get(route) ?? loadScreen(route)!);
  return <Screen />;
}

/** Marks the router initialized once a screen (not only a frame) has been committed. */
function Shown({ children }: { children: ReactNode }) {
  const router = useRouter();
  useEffect(() => router.shown(), [router]);
  return children;
}

class ErrorBoundary extends Component<
  { Fallback: ComponentType<{ error: unknown }>; resetKey: string; children: ReactNode },
  { error: unknown; key: string | null }
> {
  override state = { error: undefined as unknown, key: null as string | null };
  static getDerivedStateFromError(error: unknown) {
    return { error };
  }
  static getDerivedStateFromProps(
    props: { resetKey: string },
    state: { error: unknown; key: string | null },
  ) {
    // A new location clears the error, as a navigation does in React Router.
    if (state.key === null) return { key: props.resetKey };
    if (state.key !== props.resetKey) return { error: undefined, key: props.resetKey };
    return null;
  }
  override render() {
    const { Fallback, children } = this.props;
    return this.state.error !== undefined ? <Fallback error={this.state.error} /> : children;
  }
}

function RouteElement({ route }: { route: AppRoute }) {
  const location = useLocation();
  const to = route.guard?.();
  if (to && to !== location.pathname) return <Navigate to={to} replace />;
  const leaf = !route.children;
  let content: ReactNode = route.lazy ? (
    <LazyScreen route={route} />
  ) : route.Component ? (
    <route.Component />
  ) : route.element !== undefined ? (
    route.element
  ) : (
    <Outlet />
  );
  if (leaf) content = <Shown>{content}</Shown>;
  if (route.HydrateFallback) {
    const Fallback = route.HydrateFallback;
    content = <Suspense fallback={<Fallback />}>{content}</Suspense>;
  }
  if (route.ErrorBoundary)
    content = (
      <ErrorBoundary Fallback={route.ErrorBoundary} resetKey={location.pathname}>
        {content}
      </ErrorBoundary>
    );
  return content;
}

function toRouteObjects(routes: AppRoute[]): RouteObject[] {
  return routes.map((route) => {
    const object = {
      id: route.id,
      path: route.path,
      handle: route.handle,
      element: <RouteElement route={route} />,
    };
    return route.index
      ? { ...object, index: true }
      : { ...object, children: route.children && toRouteObjects(route.children) };
  });
}

/**
 * A history that asks the active blocker before a navigation. A blocked push or replace waits
 * for `proceed`; a blocked back or forward (the browser has already moved) is undone with
 * `go(-delta)` and done again on `proceed`, as React Router's data router does.
 */
function guarded(base: History, routes: AppRoute[], beforeChange: (from: Location) => void) {
  let blocker: ((args: BlockerArgs) => boolean) | null = null;
  let onBlock: ((b: Blocker) => void) | undefined;
  let undoing = false;
  let proceeding = false;
  let latest = 0;
  let shown = base.location;
  const listeners = new Set<(update: Update) => void>();
  const target = (to: To, state: unknown): Location => {
    const path = typeof to === 'string' ? parsePath(to) : to;
    return {
      pathname: path.pathname ?? shown.pathname,
      search: path.search ?? '',
      hash: path.hash ?? '',
      state: state ?? null,
      key: 'next',
    };
  };
  const block = (go: () => void) =>
    onBlock?.({
      state: 'blocked',
      proceed: () => {
        onBlock?.({ state: 'unblocked' });
        go();
      },
      reset: () => onBlock?.({ state: 'unblocked' }),
    });
  const stops = (nextLocation: Location) =>
    blocker?.({ currentLocation: shown, nextLocation }) === true;

  base.listen((update) => {
    if (update.action === 'POP') {
      if (undoing) {
        undoing = false;
        return;
      }
      const delta = update.delta;
      if (!proceeding && delta && stops(update.location)) {
        undoing = true;
        base.go(-delta);
        block(() => {
          proceeding = true;
          base.go(delta);
        });
        return;
      }
      proceeding = false;
    }
    // A guard that sends the visitor elsewhere does so before anything renders (no frame of the
    // guarded route, then its <Navigate>): the entry is replaced with where the guard sends.
    const redirect = redirectOf(routes, update.location.pathname);
    if (redirect !== null) {
      base.replace(redirect);
      return;
    }
    // As the data router: the screen's chunk loads before the location changes, so the screen
    // before stays until the next is ready (and a render never waits on a chunk).
    beforeChange(shown);
    const navigation = ++latest;
    const deliver = () => {
      if (navigation !== latest) return;
      shown = update.location;
      for (const listener of [...listeners]) listener(update);
    };
    const loading = pending(routes, update.location.pathname);
    if (loading) void loading.then(deliver);
    else deliver();
  });

  const history: History = {
    get action() {
      return base.action;
    },
    get location() {
      return base.location;
    },
    createHref: (to) => base.createHref(to),
    createURL: (to) => base.createURL(to),
    encodeLocation: (to) => base.encodeLocation(to),
    push(to, state) {
      const go = () => base.push(to, state);
      if (stops(target(to, state))) block(go);
      else go();
    },
    replace(to, state) {
      const go = () => base.replace(to, state);
      if (stops(target(to, state))) block(go);
      else go();
    },
    go: (delta) => base.go(delta),
    listen(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  return {
    history,
    setBlocker(fn: ((args: BlockerArgs) => boolean) | null, notify?: (b: Blocker) => void) {
      blocker = fn;
      onBlock = notify;
    },
  };
}

/**
 * The app's router on a history: the browser's, or a memory one (tests, `initialEntries`).
 */
export function createAppRouter(
  routes: AppRoute[],
  options: { initialEntries?: string[] } = {},
): AppRouter {
  const base = options.initialEntries
    ? createMemoryHistory({ initialEntries: options.initialEntries, v5Compat: true })
    : createBrowserHistory({ v5Compat: true });
  const listeners = new Set<(state: RouterState) => void>();
  const scroll = new Map<string, number>();
  // A navigation starts: the position on the screen it leaves is kept, and useNavigationIdle hears.
  const { history, setBlocker } = guarded(base, routes, (from) => {
    scroll.set(from.key, window.scrollY);
    notify();
  });
  const notify = () => {
    for (const listener of [...listeners]) listener(router.state);
  };
  const state = {
    get location() {
      return history.location;
    },
    initialized: false,
  };
  const router: Internal = {
    routes,
    history,
    state,
    objects: toRouteObjects(routes),
    scroll,
    setBlocker,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    navigate(to, navigateOptions) {
      if (typeof to === 'number') history.go(to);
      else if (navigateOptions?.replace) history.replace(to);
      else history.push(to);
      return Promise.resolve();
    },
    ready: () => Promise.resolve(pending(routes, history.location.pathname)).then(() => {}),
    shown() {
      if (state.initialized) return;
      state.initialized = true;
      notify();
    },
  };
  history.listen(() => notify());
  return router;
}

/**
 * What `useRoutes` renders, from the remembered matches: the location's pathname re-encoded as
 * `useRoutes` does (matchRoutes decodes it), for the links and params below.
 */
function Routes() {
  const router = useRouter();
  const { pathname } = useLocation();
  const matches = remembered(router.objects, pathname);
  const encode = (path: string) =>
    router.history.encodeLocation(
      path.replace(/%/g, '%25').replace(/\?/g, '%3F').replace(/#/g, '%23'),
    ).pathname;
  return renderMatches(
    matches &&
      matches.map((match) => ({
        ...match,
        pathname: encode(match.pathname),
        pathnameBase: match.pathnameBase === '/' ? '/' : encode(match.pathnameBase),
      })),
  );
}

/** Renders the router's routes (inside the app's providers). */
export function RouterView({ router }: { router: AppRouter }) {
  const internal = router as Internal;
  return (
    <HistoryRouter history={internal.history}>
      <RouterContext value={internal}>
        <Routes />
      </RouterContext>
    </HistoryRouter>
  );
}

/** The handles of the routes that match the current location, outermost first. */
export function useRouteHandles(): unknown[] {
  const router = useRouter();
  const location = useLocation();
  return (remembered(router.objects, location.pathname) ?? []).map((match) => match.route.handle);
}

/** The matching routes of a path (the app's route objects). */
export function matchAppRoutes(routes: AppRoute[], pathname: string): AppRoute[] {
  return (remembered(routes as RouteObject[], pathname) ?? []).map(
    (match) => match.route as AppRoute,
  );
}

type Matches = ReturnType<typeof matchRoutes<RouteObject>>;
const matched = new WeakMap<RouteObject[], Map<string, Matches>>();

/**
 * `matchRoutes`, remembered per route table and pathname: React Router flattens and ranks the
 * whole table on every call (~5 ms for our 56 routes on this machine, ~20 ms on a phone), and a
 * start-up asks 8–10 times (the first screen, its preload, guards, the render, the frame's
 * handles). The tables never change, so the answer for a pathname does not either.
 */
function remembered(routes: RouteObject[], pathname: string): Matches {
  let byPath = matched.get(routes);
  if (!byPath) matched.set(routes, (byPath = new Map()));
  if (byPath.has(pathname)) return byPath.get(pathname)!;
  if (byPath.size >= 200) byPath.clear();
  const matches = matchRoutes(routes, pathname);
  byPath.set(pathname, matches);
  return matches;
}

/**
 * Asks before leaving while `shouldBlock` says so (one blocker at a time, as React Router's):
 * `state` is 'blocked' until `proceed` or `reset`.
 */
export function useBlocker(shouldBlock: (args: BlockerArgs) => boolean): Blocker {
  const router = useRouter();
  const [blocker, setBlocker] = useState<Blocker>({ state: 'unblocked' });
  const latest = useLatest(shouldBlock);
  useEffect(() => {
    router.setBlocker((args) => latest.current(args), setBlocker);
    return () => router.setBlocker(null);
  }, [router, latest]);
  return blocker;
}

function useLatest<T>(value: T): { current: T } {
  const [ref] = useState(() => ({ current: value }));
  useLayoutEffect(() => {
    ref.current = value;
  });
  return ref;
}

/** False while a navigation is under way (its screen still loading in a transition). */
export function useNavigationIdle(): boolean {
  const router = useRouter();
  const requested = useSyncExternalStore(
    router.subscribe,
    () => router.history.location.key,
    () => router.history.location.key,
  );
  return useLocation().key === requested;
}

const SCROLL_KEY = 'alda.scroll';

/**
 * Scroll restoration: a new screen starts at the top, back and forward return to where the
 * customer was (also after a reload: the positions are kept in sessionStorage at pagehide).
 */
export function useScrollRestoration(): void {
  const router = useRouter();
  const location = useLocation();
  const action = useNavigationType();
  useLayoutEffect(() => {
    window.history.scrollRestoration = 'manual';
    try {
      const saved = JSON.parse(sessionStorage.getItem(SCROLL_KEY) ?? '{}') as Record<
        string,
        number
      >;
      for (const [key, y] of Object.entries(saved))
        if (!router.scroll.has(key)) router.scroll.set(key, y);
    } catch {
      // Nothing kept, or not readable: every screen starts at the top.
    }
    const save = () => {
      router.scroll.set(router.state.location.key, window.scrollY);
      try {
        sessionStorage.setItem(SCROLL_KEY, JSON.stringify(Object.fromEntries(router.scroll)));
      } catch {
        // Storage full or blocked: positions are kept for this page only.
      }
    };
    window.addEventListener('pagehide', save);
    return () => window.removeEventListener('pagehide', save);
  }, [router]);
  useLayoutEffect(() => {
    if (location.hash) return;
    window.scrollTo(0, action === 'POP' ? (router.scroll.get(location.key) ?? 0) : 0);
  }, [router, location.key, location.hash, action]);
}
