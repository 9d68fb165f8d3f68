import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import * as contracts from './index.js';
import {
  isValidationMessageKey,
  VALIDATION_MESSAGE_KEYS,
  VALIDATION_MESSAGES_EN,
} from './messages.js';
import {
  collectionListQuerySchema,
  collectionPatchSchema,
  collectionScopedListQuerySchema,
  updateCollectionFormSchema,
} from './collections.js';
import { createDownloadRequestSchema, downloadLinkQuerySchema } from './downloads.js';
import {
  fileDownloadQuerySchema,
  fileListQuerySchema,
  fileLookupRequestSchema,
  sha256HexSchema,
} from './files.js';
import { pageQuerySchema } from './pagination.js';
import { deadlineInputSchema, localDateTimeSchema, timeZoneSchema } from './deadlines.js';
import { digestUnsubscribeRequestSchema, putDigestPreferenceSchema } from './digests.js';
import { trashListQuerySchema, trashSelectionSchema } from './trash.js';
import {
  createUploadLinkSchema,
  openUploadLinkSchema,
  updateUploadLinkSchema,
} from './upload-links.js';
import { tokenSetSchema } from './users.js';
import * as validation from './validation.js';

const ID = '01940000-0000-7000-8000-000000000000';
const x = (n: number) => 'x'.repeat(n);

const zodEntries = (module: Record<string, unknown>): [string, z.ZodType][] =>
  Object.entries(module).filter(
    (entry): entry is [string, z.ZodType] => entry[1] instanceof z.ZodType,
  );

/** Schemas that check what a person or a client sends: their messages must be keys. */
const INPUT_SCHEMAS = new Map<string, z.ZodType>([
  ...zodEntries(validation),
  ['tokenSetSchema', tokenSetSchema],
  ['pageQuerySchema', pageQuerySchema],
  ['collectionListQuerySchema', collectionListQuerySchema],
  ['collectionScopedListQuerySchema', collectionScopedListQuerySchema],
  ['collectionPatchSchema', collectionPatchSchema],
  ['updateCollectionFormSchema', updateCollectionFormSchema],
  ['fileListQuerySchema', fileListQuerySchema],
  ['sha256HexSchema', sha256HexSchema],
  ['fileLookupRequestSchema', fileLookupRequestSchema],
  ['putDigestPreferenceSchema', putDigestPreferenceSchema],
  ['digestUnsubscribeRequestSchema', digestUnsubscribeRequestSchema],
  ['createDownloadRequestSchema', createDownloadRequestSchema],
  ['downloadLinkQuerySchema', downloadLinkQuerySchema],
  ['fileDownloadQuerySchema', fileDownloadQuerySchema],
  ['trashListQuerySchema', trashListQuerySchema],
  ['trashSelectionSchema', trashSelectionSchema],
  ['createUploadLinkSchema', createUploadLinkSchema],
  ['updateUploadLinkSchema', updateUploadLinkSchema],
  ['openUploadLinkSchema', openUploadLinkSchema],
  ['localDateTimeSchema', localDateTimeSchema],
  ['timeZoneSchema', timeZoneSchema],
  ['deadlineInputSchema', deadlineInputSchema],
]);

/** Shapes the API answers with; their messages are never shown, so zod's defaults are fine. */
const RESPONSE_SCHEMAS = new Set([
  'errorCodeSchema',
  'errorBodySchema',
  'statusResponseSchema',
  'liveResponseSchema',
  'readyResponseSchema',
  'paginationSchema',
  'userScopeSchema',
  'userSchema',
  'meResponseSchema',
  'sessionSchema',
  'fileLookupMatchSchema',
  'digestFrequencySchema',
  'digestPreferenceSchema',
  'digestUnsubscribeResponseSchema',
  'sessionsResponseSchema',
  'revokeOtherSessionsResponseSchema',
  'authResultResponseSchema',
  'newPasswordRequiredDataSchema',
  'secondFactorMethodSchema',
  'secondFactorRequiredDataSchema',
  'reauthenticationMethodSchema',
  'reauthenticationRequiredDataSchema',
  'passkeySchema',
  'secondFactorsResponseSchema',
  'totpEnrolmentResponseSchema',
  'recoveryCodesResponseSchema',
  'teamModeValueSchema',
  'planSchema',
  'teamSchema',
  'teamListItemSchema',
  'teamListResponseSchema',
  'createTeamResponseSchema',
  'createAliasResponseSchema',
  'memberRoleSchema',
  'memberStatusSchema',
  'memberTypeSchema',
  'memberSchema',
  'memberListResponseSchema',
  'credentialsSchema',
  'memberRefSchema',
  'collectionSchema',
  'collectionListResponseSchema',
  'createCollectionResponseSchema',
  'fileSchema',
  'fileListResponseSchema',
  'fileDownloadResponseSchema',
  'duplicatesResponseSchema',
  'duplicateGroupSchema',
  'fileLookupResponseSchema',
  'downloadPartSchema',
  'downloadSchema',
  'createDownloadResponseSchema',
  'downloadLinkResponseSchema',
  'subscribeResponseSchema',
  'confirmSubscriptionResponseSchema',
  'unsubscribeResponseSchema',
  'analyticsSettingsSchema',
  'clientConfigResponseSchema',
  'trashItemSchema',
  'trashListResponseSchema',
  'trashRestoreResponseSchema',
  'trashPurgeResponseSchema',
  'uploadLinkSchema',
  'uploadLinkListResponseSchema',
  'uploadLinkInfoSchema',
  'guestSessionSchema',
  'guestFileSchema',
  'guestFileListResponseSchema',
  'deadlineSchema',
  'remindResponseSchema',
]);

/** A valid value for every field name the input schemas use. */
const FIELD_SAMPLES: Record<string, unknown> = {
  email: 'zoe@example.it',
  password: 'Abcdef1!',
  newPassword: 'Abcdef1!',
  confirmPassword: 'Abcdef1!',
  nickname: 'Zoë',
  locale: 'en',
  identifier: 'zoe.rossi',
  username: 'zoe.rossi',
  team: 'acme',
  session: 's',
  teamId: ID,
  itemIds: [ID],
  userId: ID,
  code: '123456',
  refreshToken: 'r',
  accessToken: 'a',
  firstName: 'Zoë',
  lastName: 'Rossi',
  name: 'Acme',
  description: 'Photos',
  mode: 'collaborative',
  isCollaborative: true,
  alias: 'acme',
  star: true,
  role: 'uploader',
  key: 'k',
  token: 't',
  from: 1000,
  to: 2000,
  terms: true,
  termsVersion: '2025-03-05',
  privacyVersion: '2025-03-05',
  IdToken: 'i',
  TokenType: 'Bearer',
  AccessToken: 'a',
  ExpiresIn: 3600,
  RefreshToken: 'r',
  limit: 20,
  lastKey: 'k',
  member: ID,
  tagged: ID,
  creator: ID,
  view: 'collaborative',
  sort: 'asc',
  collectionId: ID,
  prefix: 'IMG_',
  fileIds: [ID],
  localTime: '20261123-081502',
  disposition: 'inline',
  challenge: 'c',
  id: 'i',
  rawId: 'i',
  type: 'public-key',
  totp: '123 456',
  recoveryCode: 'ABCDE-12345',
  webauthn: { id: 'i', rawId: 'i', type: 'public-key', response: {} },
  response: { id: 'i', rawId: 'i', type: 'public-key', response: {} },
  local: '2026-12-01T18:00',
  timeZone: 'Europe/Rome',
  deadline: { local: '2026-12-01T18:00', timeZone: 'Europe/Rome' },
  deadlineLocal: '2026-12-01T18:00',
  deadlineZone: 'Europe/Rome',
  allowLateUploads: true,
};

/** Where leaving out every optional field is not valid, or would leave a cross-field rule unused. */
const SAMPLE_OVERRIDES: Record<string, Record<string, unknown>> = {
  signInRequestSchema: { email: 'zoe@example.it', password: 'abcdefgh' },
  dateRangeSchema: { from: 1000, to: 2000 },
  secondFactorRequestSchema: { challenge: 'c', totp: '123456' },
  totpDisableRequestSchema: { password: 'abcdefgh' },
  updateUploadLinkSchema: { enabled: true },
  fileLookupRequestSchema: { sha256: ['a'.repeat(64)] },
  putDigestPreferenceSchema: { frequency: 'daily' },
  digestUnsubscribeRequestSchema: { team: 'team-id', user: 'user-id', token: 'token' },
  reauthenticateRequestSchema: { password: 'abcdefgh' },
};

const BAD_VALUES: readonly unknown[] = [
  undefined,
  null,
  true,
  false,
  0,
  1,
  -1,
  1.5,
  Number.NaN,
  1e15,
  [],
  {},
  '',
  '   ',
  'a',
  'A',
  'ab',
  '-a-',
  'a_b',
  'Mario1',
  'owner',
  'fr',
  'zoe',
  'Ab1!',
  'abcdefgh',
  'Abcdef1?',
  '2025-03-05',
  x(31),
  x(51),
  x(101),
  x(251),
  x(255),
  x(1025),
  x(5000),
];

function sampleFor(name: string, schema: z.ZodObject): Record<string, unknown> {
  const override = SAMPLE_OVERRIDES[name];
  if (override) return override;
  const sample: Record<string, unknown> = {};
  for (const [field, fieldSchema] of Object.entries(schema.shape)) {
    if (!(fieldSchema as z.ZodType).safeParse(undefined).success)
      sample[field] = FIELD_SAMPLES[field];
  }
  return sample;
}

/** Every input each schema is fed: the bad values whole, and a valid sample with one field spoiled. */
function inputsFor(name: string, schema: z.ZodType): unknown[] {
  const inputs: unknown[] = [...BAD_VALUES];
  if (schema instanceof z.ZodObject) {
    const sample = sampleFor(name, schema);
    for (const field of Object.keys(schema.shape)) {
      for (const value of [...BAD_VALUES, FIELD_SAMPLES[field]]) {
        inputs.push({ ...sample, [field]: value });
      }
    }
  }
  return inputs;
}

describe('message keys', () => {
  it('are unique', () => {
    expect(new Set(VALIDATION_MESSAGE_KEYS).size).toBe(VALIDATION_MESSAGE_KEYS.length);
  });

  it('have English texts only for keys that exist', () => {
    for (const key of Object.keys(VALIDATION_MESSAGES_EN))
      expect(isValidationMessageKey(key)).toBe(true);
    expect(isValidationMessageKey('toString')).toBe(false);
  });

  it('every exported schema is either an input schema or a listed response schema', () => {
    for (const [name] of zodEntries(contracts)) {
      expect(INPUT_SCHEMAS.has(name) !== RESPONSE_SCHEMAS.has(name), name).toBe(true);
    }
  });

  it('every valid sample parses, so spoiling one field tests that field', () => {
    for (const [name, schema] of INPUT_SCHEMAS) {
      if (!(schema instanceof z.ZodObject)) continue;
      const result = schema.safeParse(sampleFor(name, schema));
      expect(result.error?.issues ?? [], name).toEqual([]);
    }
  });

  it('every message an input schema produces is a key, and every key is produced', () => {
    const produced = new Set<string>();
    for (const [name, schema] of INPUT_SCHEMAS) {
      for (const input of inputsFor(name, schema)) {
        for (const issue of schema.safeParse(input).error?.issues ?? []) {
          expect(isValidationMessageKey(issue.message), `${name}: ${issue.message}`).toBe(true);
          produced.add(issue.message);
        }
      }
    }
    // These need two fields wrong together, which one spoiled field cannot do.
    for (const [schema, input] of [
      [validation.resetPasswordFormSchema, { password: 'Abcdef1!', confirmPassword: 'Abcdef1?' }],
      [validation.signInRequestSchema, { password: 'abcdefgh' }],
    ] as const) {
      for (const issue of schema.safeParse(input).error?.issues ?? []) produced.add(issue.message);
    }
    // Shown on a field from the API's answer (the generated password chosen again), not by a schema.
    const fromAnswers = new Set(['samePassword']);
    expect(
      [...VALIDATION_MESSAGE_KEYS].filter((key) => !produced.has(key) && !fromAnswers.has(key)),
    ).toEqual([]);
  });

  it('every input schema can be described as JSON Schema for the OpenAPI document', () => {
    for (const [name, schema] of INPUT_SCHEMAS) {
      expect(() => z.toJSONSchema(schema, { io: 'input' }), name).not.toThrow();
    }
  });
});
