import type { DocumentedHeader, DocumentedProtocol, ProtocolRefusal } from '../http/api-docs.js';

/**
 * What the tus routes expect and answer beyond their JSON, for the OpenAPI document only (see
 * `DocumentedProtocol`): @tus/server reads these headers and bodies itself, so the routes
 * validate none of them, and a generated client still needs their names.
 */

const TUS_VERSION = '1.0.0';

/** The binary body of PATCH (and of a POST that uploads its first bytes). */
const OFFSET_OCTET_STREAM = 'application/offset+octet-stream';

const BYTES = { type: 'integer', minimum: 0 } as const;

const tusResumable: DocumentedHeader = {
  description: `The tus version the client speaks: ${TUS_VERSION}, the only one this server does`,
  required: true,
  schema: { type: 'string', enum: [TUS_VERSION] },
};

const uploadChecksum: DocumentedHeader = {
  description:
    'The checksum of this request\'s bytes, "<algorithm> <base64 digest>" with sha1, sha256 or md5 (tus checksum extension); checksumMismatch (460) when they differ, and the bytes are not stored',
  schema: { type: 'string', pattern: '^(sha1|sha256|md5) [A-Za-z0-9+/]+=*$' },
};

const answerTusResumable: DocumentedHeader = { description: TUS_VERSION };

/** Every tus request: a version this server does not speak is refused with the ones it does. */
const UNSUPPORTED_VERSION: ProtocolRefusal = {
  status: 412,
  code: 'invalidRequest',
  when: `Tus-Resumable is not ${TUS_VERSION}`,
  headers: { 'Tus-Version': { description: `The versions this server speaks: ${TUS_VERSION}` } },
};

/** A body of bytes of another content type. */
const NOT_OFFSET_OCTET_STREAM: ProtocolRefusal = {
  status: 415,
  code: 'invalidRequest',
  when: `Content-Type is not ${OFFSET_OCTET_STREAM}`,
};

const PATCH: DocumentedProtocol = {
  requestHeaders: {
    'Tus-Resumable': tusResumable,
    'Upload-Offset': {
      description:
        'Where these bytes go: the offset HEAD answered; uploadOffsetMismatch (409) otherwise',
      required: true,
      schema: BYTES,
    },
    'Upload-Checksum': uploadChecksum,
  },
  body: {
    contentType: OFFSET_OCTET_STREAM,
    description: 'The next bytes of the file, from Upload-Offset on',
    required: true,
  },
  responseHeaders: {
    204: {
      'Upload-Offset': { description: 'Bytes stored so far', schema: BYTES },
      'Upload-Expires': { description: 'When the upload is deleted unless it is finished' },
      'Tus-Resumable': answerTusResumable,
    },
  },
  refusals: [UNSUPPORTED_VERSION, NOT_OFFSET_OCTET_STREAM],
  note: `Behind a proxy that blocks PATCH, send it as a POST to the same URL with \`X-HTTP-Method-Override: PATCH\` (tus-js-client's \`overridePatchMethod\`).`,
};

const { note: _note, ...patchWithoutNote } = PATCH;

/** By HTTP method, for the creation URL (…/uploads) and an upload's URL (…/uploads/{uploadId}). */
const TUS_DOCS: {
  creation: Readonly<Record<string, DocumentedProtocol>>;
  upload: Readonly<Record<string, DocumentedProtocol>>;
} = {
  creation: {
    POST: {
      requestHeaders: {
        'Tus-Resumable': tusResumable,
        'Upload-Length': {
          description:
            'The size of the whole file in bytes, at most UPLOAD_MAX_FILE_BYTES (fileTooLarge, 413). Required: a deferred length (Upload-Defer-Length) is not accepted',
          required: true,
          schema: BYTES,
        },
        'Upload-Metadata': {
          description:
            'Comma-separated "<key> <base64 value>" pairs: `filename` (the name the file gets), optionally `sha256` (the 64 hex digits of the whole file\'s SHA-256, invalidInput (400) otherwise; checked when the last byte arrives, checksumMismatch (460) when it differs)',
          schema: { type: 'string' },
        },
        'Upload-Checksum': uploadChecksum,
      },
      body: {
        contentType: OFFSET_OCTET_STREAM,
        description: 'Optional (creation-with-upload): the first bytes of the file',
        required: false,
      },
      responseHeaders: {
        201: {
          'Upload-Offset': { description: 'Bytes stored so far', schema: BYTES },
          'Upload-Expires': { description: 'When the upload is deleted unless it is finished' },
          'Tus-Resumable': answerTusResumable,
        },
      },
      refusals: [UNSUPPORTED_VERSION],
    },
  },
  upload: {
    HEAD: {
      requestHeaders: { 'Tus-Resumable': tusResumable },
      responseHeaders: {
        200: {
          'Upload-Offset': { description: 'Bytes stored so far', schema: BYTES },
          'Upload-Length': { description: 'The size of the whole file', schema: BYTES },
          'Tus-Resumable': answerTusResumable,
        },
      },
      refusals: [UNSUPPORTED_VERSION],
    },
    PATCH,
    // tus's method override: the same request as PATCH, sent where PATCH cannot pass.
    POST: {
      ...patchWithoutNote,
      requestHeaders: {
        'X-HTTP-Method-Override': {
          description: 'PATCH: the request is handled as the PATCH it stands for',
          required: true,
          schema: { type: 'string', enum: ['PATCH'] },
        },
        ...PATCH.requestHeaders,
      },
    },
    DELETE: {
      requestHeaders: { 'Tus-Resumable': tusResumable },
      responseHeaders: { 204: { 'Tus-Resumable': answerTusResumable } },
      refusals: [UNSUPPORTED_VERSION],
    },
  },
};

const CREATION_URL = /\/collections\/:collectionId\/uploads$/;
const UPLOAD_URL = /\/collections\/:collectionId\/uploads\/:uploadId$/;

/** What the document says of a tus route beyond its schema; null for any other route. */
export function tusDocumentation(method: string, url: string): DocumentedProtocol | null {
  const docs = CREATION_URL.test(url)
    ? TUS_DOCS.creation
    : UPLOAD_URL.test(url)
      ? TUS_DOCS.upload
      : null;
  return docs?.[method] ?? null;
}
