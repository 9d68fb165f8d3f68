import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router';
import { vi } from 'vitest';
import { DateLocalizationProvider } from '../components/date-range-filter';
import { SnackbarProvider } from '../components/snackbar';
import type { SessionManager } from '../lib/auth/session/session-manager';
import { SessionProvider } from '../lib/auth/session/session-provider';
import { UploadQueuesProvider } from '../features/upload-app/hooks/upload-queues';
import '../i18n';
import { AppThemeProvider } from '../theme/app-theme-provider';
import { createTestSessionManager } from './session-fixtures';

export function createTestQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
}

/** jsdom has no matchMedia; the theme follows a light system preference in tests. */
export function stubMatchMedia(): void {
  vi.stubGlobal('matchMedia', (query: string) => ({
    matches: false,
    media: query,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
  }));
}

export function AppProviders({
  manager,
  queryClient,
  children,
}: {
  manager: SessionManager;
  queryClient: QueryClient;
  children: ReactNode;
}) {
  return (
    <AppThemeProvider>
      <QueryClientProvider client={queryClient}>
        <SessionProvider manager={manager}>
          <DateLocalizationProvider>
            <SnackbarProvider>
              <UploadQueuesProvider>{children}</UploadQueuesProvider>
            </SnackbarProvider>
          </DateLocalizationProvider>
        </SessionProvider>
      </QueryClientProvider>
    </AppThemeProvider>
  );
}

/**
 * The routes with every lazy page loaded up front, as after the pages' first visit: a test renders
 * its page at once instead of waiting for a module to load.
 */
export async function eagerRoutes(routes: RouteObject[]): Promise<RouteObject[]> {
  return Promise.all(
    routes.map(async (route) => {
      const { lazy, children, ...rest } = route;
      const loaded = typeof lazy === 'function' ? await lazy() : {};
      const resolved = children === undefined ? undefined : await eagerRoutes(children);
      return { ...rest, ...loaded, ...(resolved ? { children: resolved } : {}) } as RouteObject;
    }),
  );
}

/** Renders routes at `path` inside every provider the app has. */
export function renderRoutes(
  routes: RouteObject[],
  path: string,
  options: { manager?: SessionManager; queryClient?: QueryClient } = {},
) {
  const manager = options.manager ?? createTestSessionManager().manager;
  const queryClient = options.queryClient ?? createTestQueryClient();
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const view = render(
    <AppProviders manager={manager} queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { ...view, router, manager, queryClient };
}

export function jsonResponse(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });
}

export function errorResponse(
  status: number,
  errorCode: string,
  data?: Record<string, unknown>,
): Response {
  return jsonResponse(status, { statusCode: status, errorCode, message: 'server text', data });
}

type Handler = (body: unknown) => Response | Promise<Response>;

function urlOf(input: RequestInfo | URL): string {
  if (typeof input === 'string') return input;
  return input instanceof URL ? input.href : input.url;
}

export interface SentRequest {
  method: string;
  /** The path after the API base, without the query. */
  path: string;
  body: unknown;
  headers: Record<string, string>;
}

function describeRequest(input: RequestInfo | URL, init?: RequestInit): SentRequest {
  const url = new URL(urlOf(input), 'http://localhost');
  return {
    method: init?.method ?? 'GET',
    path: url.pathname.replace(/^\/api/, ''),
    body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined,
    headers: (init?.headers ?? {}) as Record<string, string>,
  };
}

/** What a fetch mock was asked, in order. */
export function sentRequests(mock: { mock: { calls: Parameters<typeof fetch>[] } }): SentRequest[] {
  return mock.mock.calls.map(([input, init]) => describeRequest(input, init));
}

/**
 * A fetch stand-in answering by "METHOD /path" (the path after the API base, query excluded);
 * anything unexpected answers 404 notFound, as the API does.
 */
export function fetchRoutes(handlers: Record<string, Handler>) {
  return async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    await Promise.resolve();
    const { method, path, body } = describeRequest(input, init);
    const handler = handlers[`${method} ${path}`];
    return handler ? handler(body) : errorResponse(404, 'notFound');
  };
}
