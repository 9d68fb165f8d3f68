import { cleanup, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  errorResponse,
  fetchRoutes,
  jsonResponse,
  renderRoutes,
  sentRequests,
  stubMatchMedia,
} from '../../../test/providers';
import { DigestUnsubscribePage } from './digest-unsubscribe-page';

const fetchMock = vi.fn<typeof fetch>();
const routes = [{ path: '/digests/unsubscribe', element: <DigestUnsubscribePage /> }];
const LINK = '/digests/unsubscribe?team=t1&user=u1&token=abc';

describe('the digest unsubscribe page', () => {
  beforeEach(() => {
    stubMatchMedia();
    vi.stubGlobal('fetch', fetchMock);
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    fetchMock.mockReset();
  });

  it('stops the digests on load with the link’s team, user and token', async () => {
    fetchMock.mockImplementation(
      fetchRoutes({
        'POST /digests/unsubscribe': () => jsonResponse(200, { status: 'unsubscribed' }),
      }),
    );
    renderRoutes(routes, LINK);
    expect(
      await screen.findByText(/You won’t receive digests of new files from this team any more/),
    ).toBeTruthy();
    expect(
      sentRequests(fetchMock)
        .filter((request) => request.path === '/digests/unsubscribe')
        .map((request) => request.body),
    ).toEqual([{ team: 't1', user: 'u1', token: 'abc' }]);
  });

  it('refuses a link without its token on the client', () => {
    renderRoutes(routes, '/digests/unsubscribe?team=t1&user=u1');
    expect(screen.getByText('This unsubscribe link is not valid.')).toBeTruthy();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('says so when the API refuses the token', async () => {
    fetchMock.mockImplementation(
      fetchRoutes({
        'POST /digests/unsubscribe': () => errorResponse(400, 'invalidUnsubscribe'),
      }),
    );
    renderRoutes(routes, LINK);
    expect(await screen.findByText('This unsubscribe link is not valid.')).toBeTruthy();
  });
});
