import {
  authResultResponseSchema,
  clientConfigResponseSchema,
  collectionListResponseSchema,
  collectionPatchSchema,
  collectionSchema,
  createAliasRequestSchema,
  createAliasResponseSchema,
  createCollectionRequestSchema,
  createDownloadRequestSchema,
  createInternalMemberRequestSchema,
  createTeamRequestSchema,
  createTeamResponseSchema,
  credentialsSchema,
  downloadLinkResponseSchema,
  downloadPartSchema,
  downloadSchema,
  errorBodySchema,
  errorCodeSchema,
  fileDownloadResponseSchema,
  fileListResponseSchema,
  fileSchema,
  inviteMemberRequestSchema,
  memberListResponseSchema,
  memberPatchSchema,
  memberRefSchema,
  memberSchema,
  paginationSchema,
  signInRequestSchema,
  statusResponseSchema,
  teamListItemSchema,
  teamListResponseSchema,
  teamSchema,
  tokenSetSchema,
  updateProfileRequestSchema,
  userSchema,
} from '@raccolta/contracts';
import { z } from 'zod';
import { errorComponents } from './api-docs.js';

/**
 * The contracts' schemas the OpenAPI document names, by component name: wherever a route's
 * request or response holds one of them (as a whole, an array item, a property), the document
 * writes `$ref: '#/components/schemas/<name>'` and describes it once under `components.schemas`,
 * so a generated client has a type of that name (`components['schemas']['Collection']`).
 *
 * Only request bodies and responses: a query or path parameter is described by its own properties
 * (@fastify/swagger cannot turn a referenced query object into parameters), so no query schema
 * and no field used in one (an id, a role) is named here.
 *
 * fastify-type-provider-zod names what a request carries `<name>Input` and what a response
 * carries `<name>` (a schema with a default or a transform reads differently on each side);
 * `namedComponents` in openapi.ts drops the suffix where only the input is used.
 */
export const SCHEMA_COMPONENTS: Readonly<Record<string, z.ZodType>> = {
  // Errors and paging, shared by every operation and list.
  ErrorBody: errorBodySchema,
  ErrorCode: errorCodeSchema,
  Pagination: paginationSchema,
  // Accounts and sessions.
  User: userSchema,
  TokenSet: tokenSetSchema,
  AuthResult: authResultResponseSchema,
  SignInRequest: signInRequestSchema,
  UpdateProfileRequest: updateProfileRequestSchema,
  // Teams and their members.
  Team: teamSchema,
  TeamListItem: teamListItemSchema,
  TeamList: teamListResponseSchema,
  CreateTeamRequest: createTeamRequestSchema,
  CreatedTeam: createTeamResponseSchema,
  CreateAliasRequest: createAliasRequestSchema,
  CreatedAlias: createAliasResponseSchema,
  Member: memberSchema,
  MemberRef: memberRefSchema,
  MemberList: memberListResponseSchema,
  MemberPatch: memberPatchSchema,
  InviteMemberRequest: inviteMemberRequestSchema,
  CreateInternalMemberRequest: createInternalMemberRequestSchema,
  Credentials: credentialsSchema,
  // Collections, files and downloads.
  Collection: collectionSchema,
  CollectionList: collectionListResponseSchema,
  CreateCollectionRequest: createCollectionRequestSchema,
  CollectionPatch: collectionPatchSchema,
  File: fileSchema,
  FileList: fileListResponseSchema,
  FileLink: fileDownloadResponseSchema,
  Download: downloadSchema,
  DownloadPart: downloadPartSchema,
  DownloadLink: downloadLinkResponseSchema,
  CreateDownloadRequest: createDownloadRequestSchema,
  // The service.
  Status: statusResponseSchema,
  ClientConfig: clientConfigResponseSchema,
};

/**
 * Gives each schema above its component name in Zod's global registry, which
 * fastify-type-provider-zod reads when it writes the document. What the schema already carries
 * there (its description) is kept. Registering again is harmless: the same schemas get the same
 * names.
 */
export function registerSchemaComponents(): void {
  for (const [id, schema] of Object.entries(SCHEMA_COMPONENTS)) {
    z.globalRegistry.add(schema, { ...z.globalRegistry.get(schema), id });
  }
}

const REF_PREFIX = '#/components/schemas/';
const INPUT_SUFFIX = 'Input';

/** A copy of `node` with each component reference renamed by `rename`. */
function renameRefs<T>(node: T, rename: (name: string) => string): T {
  return JSON.parse(JSON.stringify(node), (key, value: unknown) =>
    key === '$ref' && typeof value === 'string' && value.startsWith(REF_PREFIX)
      ? REF_PREFIX + rename(value.slice(REF_PREFIX.length))
      : value,
  ) as T;
}

/**
 * The document's components as a client reads them: the error body of each single code
 * (`errorComponents`), and only the schemas something refers to (the type provider writes the
 * input and the output form of every named schema, used or not); a schema only requests carry
 * keeps its own name (`SignInRequest`, not `SignInRequestInput`). `<name>Input` stays where a
 * response also carries `<name>`.
 */
export function namedComponents<Doc extends object>(doc: Doc): Doc {
  const { components, ...rest } = doc as { components?: { schemas?: Record<string, unknown> } };
  const schemas: Record<string, unknown> = { ...components?.schemas, ...errorComponents() };
  const used = new Set<string>();
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (node === null || typeof node !== 'object') return;
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string' && value.startsWith(REF_PREFIX)) {
        const name = value.slice(REF_PREFIX.length);
        if (!used.has(name)) {
          used.add(name);
          visit(schemas[name]);
        }
      } else visit(value);
    }
  };
  visit(rest);
  visit({ ...components, schemas: undefined });
  const names = new Map<string, string>();
  for (const name of Object.keys(schemas).filter((n) => used.has(n))) {
    const base = name.endsWith(INPUT_SUFFIX) ? name.slice(0, -INPUT_SUFFIX.length) : null;
    names.set(name, base && base in SCHEMA_COMPONENTS && !used.has(base) ? base : name);
  }
  const rename = (name: string) => names.get(name) ?? name;
  return renameRefs(
    {
      ...rest,
      components: {
        ...components,
        schemas: Object.fromEntries(
          [...names]
            .map(([name, newName]) => [newName, schemas[name]] as const)
            .sort(([a], [b]) => a.localeCompare(b)),
        ),
      },
    },
    rename,
  ) as Doc;
}
