import { collectionListResponseSchema } from '@raccolta/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BASE, ordered, startListEnv, type ListEnv, type Stored } from './list-env.js';

describe('collections: team lists, filters, paging', () => {
  let env: ListEnv;
  beforeAll(async () => {
    env = await startListEnv();
  });
  afterAll(() => env.server.close());

  it('pages through every collection of the team once, in order, both ways', async () => {
    const { teamA, get, ids, inA } = env;
    const { owner } = env.users;
    const url = `/teams/${teamA.id}/collections`;
    const first = collectionListResponseSchema.parse((await get(url)).json());
    expect(first.collections).toHaveLength(20);
    expect(await ids(url)).toEqual(ordered(inA()));
    expect(await ids(`${url}?sort=desc`, owner, 7)).toEqual(ordered(inA()));
    expect(await ids(`/teams/lists-a/collections?sort=asc`)).toEqual(ordered(inA(), 'asc'));
    expect(await ids(`${url}?sort=asc`, owner, 13)).toEqual(ordered(inA(), 'asc'));
  });

  it('filters by creator, tagged member, view and date range, in any combination', async () => {
    const { teamA, ids, inA } = env;
    const { owner, admin, uploader, mate, viewer } = env.users;
    const t = (minutes: number) => BASE + minutes * 60_000;
    const cases: [string, (s: Stored) => boolean, ('asc' | 'desc')?][] = [
      [`member=${uploader.id}`, (s) => s.createdBy === uploader.id],
      [`member=${viewer.id}`, () => false],
      [`tagged=${viewer.id}`, (s) => s.tags.includes(viewer.id)],
      [`tagged=${mate.id}&sort=asc`, (s) => s.tags.includes(mate.id), 'asc'],
      ['view=collaborative', (s) => s.mode === 'collaborative'],
      ['view=all', () => true],
      [`from=${t(3)}&to=${t(7)}`, (s) => s.updatedAt >= t(3) && s.updatedAt <= t(7)],
      [`from=${t(12)}`, (s) => s.updatedAt >= t(12)],
      [`to=${t(0)}&sort=asc`, (s) => s.updatedAt <= t(0), 'asc'],
      [`from=${t(5)}&to=${t(5)}`, (s) => s.updatedAt === t(5)],
      [
        `member=${admin.id}&view=collaborative`,
        (s) => s.createdBy === admin.id && s.mode === 'collaborative',
      ],
      [
        `tagged=${mate.id}&member=${owner.id}`,
        (s) => s.tags.includes(mate.id) && s.createdBy === owner.id,
      ],
      [
        `tagged=${viewer.id}&view=collaborative&from=${t(2)}&to=${t(11)}&sort=asc`,
        (s) =>
          s.tags.includes(viewer.id) &&
          s.mode === 'collaborative' &&
          s.updatedAt >= t(2) &&
          s.updatedAt <= t(11),
        'asc',
      ],
    ];
    for (const [query, keep, sort] of cases) {
      const expected = ordered(inA().filter(keep), sort);
      // Only the viewer, who creates nothing, has an empty list: every other case shows rows.
      if (!query.startsWith(`member=${viewer.id}`))
        expect(expected.length, query).toBeGreaterThan(0);
      expect(await ids(`/teams/${teamA.id}/collections?${query}`, owner, 4), query).toEqual(
        expected,
      );
    }
    // The scoped lists take the same filters.
    expect(
      await ids(`/teams/${teamA.id}/shared-collections?tagged=${viewer.id}&sort=asc`, admin, 3),
    ).toEqual(
      ordered(
        inA().filter((s) => s.mode === 'collaborative' && s.tags.includes(viewer.id)),
        'asc',
      ),
    );
    expect(
      await ids(`/teams/${teamA.id}/members/${mate.id}/collections?from=${t(4)}`, viewer, 5),
    ).toEqual(ordered(inA().filter((s) => s.createdBy === mate.id && s.updatedAt >= t(4))));
  });

  it('shows an uploader its own collections and the collaborative ones, in every list', async () => {
    const { teamA, ids, inA } = env;
    const { owner, uploader, viewer } = env.users;
    const visible = (s: Stored) => s.createdBy === uploader.id || s.mode === 'collaborative';
    const base = `/teams/${teamA.id}`;
    expect(await ids(`${base}/collections`, uploader, 6)).toEqual(ordered(inA().filter(visible)));
    expect(await ids(`${base}/collections?member=${owner.id}`, uploader)).toEqual(
      ordered(inA().filter((s) => s.createdBy === owner.id && s.mode === 'collaborative')),
    );
    expect(await ids(`${base}/members/${owner.id}/collections`, uploader)).toEqual(
      ordered(inA().filter((s) => s.createdBy === owner.id && s.mode === 'collaborative')),
    );
    expect(await ids(`${base}/members/${uploader.id}/collections`, uploader)).toEqual(
      ordered(inA().filter((s) => s.createdBy === uploader.id)),
    );
    expect(await ids(`${base}/collections?tagged=${viewer.id}`, uploader, 3)).toEqual(
      ordered(inA().filter((s) => visible(s) && s.tags.includes(viewer.id))),
    );
    expect(await ids(`${base}/shared-collections`, uploader)).toEqual(
      ordered(inA().filter((s) => s.mode === 'collaborative')),
    );
    // A viewer sees everything, like the managers.
    expect(await ids(`${base}/collections`, viewer)).toEqual(ordered(inA()));
  });

  it('refuses malformed queries with 400 invalidInput and its message key', async () => {
    const { teamA, get } = env;
    const url = `/teams/${teamA.id}/collections`;
    for (const query of [
      'lastKey=bm90LWpzb24',
      'lastKey=WyJ4Il0',
      'limit=21',
      'limit=0',
      'member=not-a-uuid',
      'tagged=42',
      'view=mine',
    ]) {
      const res = await get(`${url}?${query}`);
      expect(res.json(), query).toMatchObject({ statusCode: 400, errorCode: 'invalidInput' });
    }
    // A sort order other than asc or desc has its own code (spec §8).
    expect((await get(`${url}?sort=up`)).json()).toMatchObject({
      statusCode: 400,
      errorCode: 'invalidSorting',
    });
    const range = await get(`${url}?from=${BASE + 1}&to=${BASE}`);
    expect(range.json()).toMatchObject({
      statusCode: 400,
      errorCode: 'invalidInput',
      data: {
        issues: [
          { path: 'querystring/from', message: 'filterStartEndDateInvalid' },
          { path: 'querystring/to', message: 'filterStartEndDateInvalid' },
        ],
      },
    });
    expect((await get(`${url}?from=yesterday`)).json()).toMatchObject({
      errorCode: 'invalidInput',
      data: { issues: [{ path: 'querystring/from', message: 'filterDateInvalid' }] },
    });
    for (const scoped of ['/collections', `/teams/${teamA.id}/shared-collections`]) {
      expect((await get(`${scoped}?lastKey=%25%25`)).statusCode, scoped).toBe(400);
      expect((await get(`${scoped}?from=${BASE + 1}&to=${BASE}`)).statusCode, scoped).toBe(400);
    }
  });
});
