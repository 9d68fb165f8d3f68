// s3rver ships no types; this is the part of its API (and of its Koa app) the test harness uses.
declare module 's3rver' {
  import type { IncomingMessage, Server } from 'node:http';
  import type { AddressInfo } from 'node:net';
  import type { Readable } from 'node:stream';

  export interface S3rverOptions {
    address?: string;
    port?: number;
    silent?: boolean;
    directory?: string;
    resetOnClose?: boolean;
    allowMismatchedSignatures?: boolean;
    vhostBuckets?: boolean;
    configureBuckets?: { name: string; configs?: (string | Buffer)[] }[];
  }

  /** The Koa context, as far as a harness middleware reads or writes it. */
  export interface S3rverContext {
    method: string;
    /** Percent-encoded, as it came on the request line. */
    path: string;
    query: Record<string, string | string[] | undefined>;
    status: number;
    type: string;
    body: unknown;
    req: IncomingMessage;
    set(field: string, value: string): void;
  }

  export type S3rverMiddleware = (ctx: S3rverContext, next: () => Promise<void>) => Promise<void>;

  export interface S3rverObject {
    bucket: string;
    key: string;
    content: Readable | Buffer | null;
    metadata: Record<string, string>;
  }

  export interface StoredObject extends S3rverObject {
    content: Readable | null;
    readonly size: number;
    range?: { start: number; end: number };
  }

  export interface FilesystemStore {
    rootDirectory: string;
    getBucketPath(bucket: string): string;
    getResourcePath(bucket: string, key: string | undefined, resource: string): string;
    getObject(
      bucket: string,
      key: string,
      options?: { start?: number; end?: number },
    ): Promise<StoredObject | null>;
    putObject(object: S3rverObject): Promise<{ size: number; md5: string }>;
    putMetadata(
      bucket: string,
      key: string,
      metadata: Record<string, string>,
      md5?: string,
    ): Promise<void>;
  }

  export default class S3rver {
    constructor(options?: S3rverOptions);
    readonly store: FilesystemStore;
    /** Koa's middleware list, composed when the server starts listening. */
    readonly middleware: S3rverMiddleware[];
    readonly httpServer: Server;
    run(): Promise<AddressInfo>;
    close(): Promise<void>;
  }
}
