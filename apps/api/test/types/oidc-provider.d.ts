// oidc-provider ships no types; this is the part of its API the test provider uses.
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  type Handler = (req: IncomingMessage, res: ServerResponse) => void;

  export interface InteractionDetails {
    uid: string;
    prompt: { name: string; details: { missingOIDCClaims?: string[] } };
    params: Record<string, unknown>;
    session?: { accountId: string };
    grantId?: string;
  }

  export interface InteractionResult {
    login?: { accountId: string };
    consent?: { grantId: string };
    error?: string;
    error_description?: string;
  }

  export interface Grant {
    addOIDCScope(scope: string): void;
    addOIDCClaims(claims: string[]): void;
    save(): Promise<string>;
  }

  export interface GrantClass {
    new (properties: { accountId: string; clientId: string }): Grant;
    find(id: string): Promise<Grant | undefined>;
  }

  export interface Account {
    accountId: string;
    claims: () => Promise<Record<string, unknown>>;
  }

  export interface KoaContext {
    type: string;
    body: unknown;
  }

  export interface Configuration {
    clients: Record<string, unknown>[];
    jwks: { keys: Record<string, unknown>[] };
    cookies: { keys: string[] };
    scopes: string[];
    claims: Record<string, string[]>;
    conformIdTokenClaims: boolean;
    ttl: Record<string, number>;
    pkce: { required: () => boolean };
    features: Record<string, { enabled: boolean }>;
    interactions: { url: (ctx: unknown, interaction: { uid: string }) => string };
    findAccount: (ctx: unknown, sub: string) => Promise<Account | undefined>;
    renderError: (ctx: KoaContext, out: Record<string, unknown>, error: unknown) => Promise<void>;
  }

  export default class Provider {
    constructor(issuer: string, configuration: Configuration);
    readonly Grant: GrantClass;
    callback(): Handler;
    interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<InteractionDetails>;
    interactionFinished(
      req: IncomingMessage,
      res: ServerResponse,
      result: InteractionResult,
      options?: { mergeWithLastSubmission?: boolean },
    ): Promise<void>;
  }
}
