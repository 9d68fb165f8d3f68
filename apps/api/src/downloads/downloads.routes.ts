import {
  createDownloadRequestSchema,
  downloadLinkQuerySchema,
  downloadLinkResponseSchema,
  downloadPartSchema,
  downloadSchema,
  idSchema,
  teamRefSchema,
} from '@raccolta/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actorOf, authenticate } from '../auth/auth-hook.js';
import type { AppContext } from '../context.js';
import {
  createDownload,
  createDownloadLink,
  createPartLink,
  getDownload,
  getDownloadPart,
  MAX_DOWNLOADS_IN_PROGRESS,
} from './downloads.service.js';
import { BEARER } from '../http/api-docs.js';

const tags = ['downloads'];
const security = BEARER;
const teamParams = z.object({ teamId: teamRefSchema });
const downloadParams = teamParams.extend({ downloadId: idSchema });
const partParams = downloadParams.extend({
  partId: z.coerce.number({ error: 'invalidInput' }).int().positive().max(100_000),
});
const ACCESS =
  'Only the member who requested a download sees it, and only while still an active member with readDownload (owner, admin, viewer) who sees the collection: anything else is notFound (404), as a foreign team is. authorizationRequired/invalidAuthorization (401).';
const LINK =
  "A short-lived link (SIGNED_URL_TTL_SECONDS) that downloads the zip as an attachment without the Authorization header; access is checked again on every request. `localTime` (YYYYMMDD-HHmmss, the caller's clock now) tells the caller's time zone: the moment the download was requested, on that clock, is put before the saved file's name, the same for every part. downloadNotReady (409) while the part is being prepared; downloadExpired (410) once deleted; invalidDownload (400) when the build failed.";

export function downloadsRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return (app) => {
    const onRequest = authenticate(ctx);

    app.post(
      '/teams/:teamId/downloads',
      {
        schema: {
          operationId: 'createDownload',
          errors: ['notFound', 'forbidden', 'nothingToDownload'],
          tags,
          summary: 'Request a collection download (a zip prepared in the background)',
          description: `Answers 202 at once; poll GET …/downloads/{requestId} until ready or failed. Without \`prefix\` or \`fileIds\` the whole collection as it is now; \`prefix\` keeps the files whose name starts with it; \`fileIds\` names files of the collection (others are ignored). Entries are named after the files' \`name\`, with an extension of their sniffed type when the name's own contradicts it, as single downloads are. Photos and other compressed formats are stored, text is deflated; archives past 4 GiB use Zip64; above DOWNLOAD_PART_MAX_BYTES the download is split into parts, each a zip that opens on its own. The requester gets an e-mail when it is ready; it is deleted DOWNLOAD_EXPIRY_HOURS later. The same request while one is in progress answers that one. Needs createDownload (owner, admin, viewer): forbidden (403) otherwise; nothingToDownload (400) when no file matches; tooManyRequests (429) with ${MAX_DOWNLOADS_IN_PROGRESS} downloads in progress; notFound (404) for a collection the caller does not see.`,
          security,
          params: teamParams,
          body: createDownloadRequestSchema,
          response: { 202: downloadSchema },
        },
        onRequest,
      },
      async (request, reply) => {
        const download = await createDownload(
          ctx,
          actorOf(request),
          request.params.teamId,
          request.body,
        );
        return reply.status(202).send(download);
      },
    );

    app.get(
      '/teams/:teamId/downloads/:downloadId',
      {
        schema: {
          operationId: 'getDownload',
          errors: ['notFound', 'forbidden'],
          tags,
          summary: 'A download: its status and parts',
          description: `status inProgress, ready, failed or expired; totalParts once planned; each part is offered as soon as it is stored. ${ACCESS}`,
          security,
          params: downloadParams,
          response: { 200: downloadSchema },
        },
        onRequest,
      },
      (request) =>
        getDownload(ctx, actorOf(request), request.params.teamId, request.params.downloadId),
    );

    app.get(
      '/teams/:teamId/downloads/:downloadId/parts/:partId',
      {
        schema: {
          operationId: 'getDownloadPart',
          errors: ['notFound', 'forbidden', 'invalidDownload', 'downloadExpired'],
          tags,
          summary: 'One part of a download',
          description: `Parts are numbered from 1. downloadExpired (410), invalidDownload (400) for a failed download. ${ACCESS}`,
          security,
          params: partParams,
          response: { 200: downloadPartSchema },
        },
        onRequest,
      },
      (request) => {
        const { teamId, downloadId, partId } = request.params;
        return getDownloadPart(ctx, actorOf(request), teamId, downloadId, partId);
      },
    );

    app.get(
      '/teams/:teamId/downloads/:downloadId/download',
      {
        schema: {
          operationId: 'createDownloadLink',
          errors: [
            'notFound',
            'forbidden',
            'invalidDownload',
            'downloadExpired',
            'downloadNotReady',
          ],
          tags,
          summary: 'A link to the zip of a download made of one part',
          description: `${LINK} A download of several parts answers invalidDownload (400): ask each part's link. ${ACCESS}`,
          security,
          params: downloadParams,
          querystring: downloadLinkQuerySchema,
          response: { 200: downloadLinkResponseSchema },
        },
        onRequest,
      },
      (request) => {
        const { teamId, downloadId } = request.params;
        return createDownloadLink(
          ctx,
          actorOf(request),
          teamId,
          downloadId,
          request.query.localTime,
        );
      },
    );

    app.get(
      '/teams/:teamId/downloads/:downloadId/parts/:partId/download',
      {
        schema: {
          operationId: 'createDownloadPartLink',
          errors: [
            'notFound',
            'forbidden',
            'invalidDownload',
            'downloadExpired',
            'downloadNotReady',
          ],
          tags,
          summary: "A link to one part's zip",
          description: `${LINK} ${ACCESS}`,
          security,
          params: partParams,
          querystring: downloadLinkQuerySchema,
          response: { 200: downloadLinkResponseSchema },
        },
        onRequest,
      },
      (request) => {
        const { teamId, downloadId, partId } = request.params;
        return createPartLink(
          ctx,
          actorOf(request),
          teamId,
          downloadId,
          partId,
          request.query.localTime,
        );
      },
    );
    return Promise.resolve();
  };
}
