import { expect, type APIRequestContext } from '@playwright/test';

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

/** Creates a collection through the API and answers its id. */
export async function apiCreateCollection(
  request: APIRequestContext,
  token: string,
  teamId: string,
  body: {
    name: string;
    description?: string;
    mode?: 'owned' | 'collaborative';
    deadline?: { local: string; timeZone: string };
  },
): Promise<string> {
  const res = await request.post(`/api/teams/${teamId}/collections`, {
    headers: bearer(token),
    data: { mode: 'collaborative', ...body },
  });
  expect(res.status()).toBe(201);
  return ((await res.json()) as { collectionId: string }).collectionId;
}

/** Tags members on a collection (a JSON patch of /tags). */
export async function apiTagCollection(
  request: APIRequestContext,
  token: string,
  teamId: string,
  collectionId: string,
  userIds: string[],
): Promise<void> {
  const res = await request.patch(`/api/teams/${teamId}/collections/${collectionId}`, {
    headers: bearer(token),
    data: [{ op: 'replace', path: '/tags', value: userIds }],
  });
  expect(res.status()).toBe(200);
}

/** Uploads one file through the plain multipart endpoint. */
export async function apiUploadFile(
  request: APIRequestContext,
  token: string,
  teamId: string,
  collectionId: string,
  file: { name: string; mimeType: string; buffer: Buffer },
): Promise<string> {
  const res = await request.post(`/api/teams/${teamId}/collections/${collectionId}/files`, {
    headers: bearer(token),
    multipart: { file },
  });
  expect(res.status()).toBe(201);
  return ((await res.json()) as { fileId: string }).fileId;
}

/** The user id of the signed-in user, from GET /users/@me. */
export async function apiMyUserId(request: APIRequestContext, token: string): Promise<string> {
  const res = await request.get('/api/users/@me', { headers: bearer(token) });
  expect(res.status()).toBe(200);
  return ((await res.json()) as { userId: string }).userId;
}

/** Signs in through the API and answers the access token (no browser session involved). */
export async function apiSignIn(
  request: APIRequestContext,
  email: string,
  password: string,
): Promise<string> {
  const res = await request.post('/api/auth/signin', { data: { email, password } });
  expect(res.status()).toBe(200);
  return ((await res.json()) as { result: { AccessToken: string } }).result.AccessToken;
}

/** Accepts an invitation link as the signed-in invitee. */
export async function apiAcceptInvitation(
  request: APIRequestContext,
  token: string,
  teamId: string,
  link: string,
): Promise<void> {
  const key = new URL(link).searchParams.get('key');
  const res = await request.post(`/api/teams/${teamId}/invitations/accept`, {
    headers: bearer(token),
    data: { token: key },
  });
  expect(res.status()).toBe(200);
}
