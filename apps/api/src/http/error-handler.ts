import type { ErrorBody, ErrorCode } from '@raccolta/contracts';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { PERMISSIONS_POLICY } from './security.js';
import { AppError } from '../errors/app-error.js';
import { fieldError } from '../errors/field-errors.js';

/** Framework errors that carry a 4xx status, by status, when nothing more specific applies. */
const CODE_BY_STATUS: Record<number, ErrorCode> = {
  400: 'invalidRequest',
  401: 'authorizationRequired',
  403: 'forbidden',
  404: 'notFound',
  405: 'notFound',
  406: 'invalidRequest',
  410: 'expiredToken',
  413: 'invalidInput',
  415: 'invalidRequest',
  416: 'invalidRequest',
  429: 'tooManyRequests',
};

/**
 * Validation message keys that are error codes of their own (spec §8): a request refused for one
 * of them answers that code rather than invalidInput, the first of this list that applies. So a
 * refused e-mail address is named as such whatever else is wrong, and a broken e-mailed link
 * reads as that link's error.
 */
const NAMED_VALIDATION_ERRORS = {
  invalidEmail: 'The e-mail address is not valid',
  invalidResetLink: 'The password reset link is not valid',
  invalidVerification: 'The verification link is not valid',
  invalidAcceptToken: 'The invitation link is not valid',
  invalidRejectToken: 'The invitation link is not valid',
  termsRequired: 'The terms and privacy versions in force must be accepted',
  invalidUnsubscribe: 'The unsubscribe link is not valid',
  invalidSorting: 'The sort order must be asc or desc',
  invalidSubscriptionConfirmation: 'The confirmation link is not valid',
} as const satisfies Partial<Record<ErrorCode, string>>;

type NamedValidationError = keyof typeof NAMED_VALIDATION_ERRORS;

function namedValidationError(
  validation: FastifyError['validation'] | undefined,
): { code: ErrorCode; message: string } | undefined {
  const codes = Object.keys(NAMED_VALIDATION_ERRORS) as NamedValidationError[];
  const named = codes.find((code) => validation?.some((v) => v.message === code));
  if (named) return { code: named, message: NAMED_VALIDATION_ERRORS[named] };
  return fieldError(validation?.flatMap((v) => v.message ?? []));
}

export function toErrorBody(error: unknown, requestId: string): ErrorBody {
  if (error instanceof AppError) {
    return {
      statusCode: error.statusCode,
      errorCode: error.errorCode,
      message: error.message,
      ...(error.data ? { data: error.data } : {}),
    };
  }
  const fe = error as Partial<FastifyError>;
  if (hasZodFastifySchemaValidationErrors(error) || fe.code === 'FST_ERR_VALIDATION') {
    const issues = fe.validation?.map((v) => ({
      path: `${fe.validationContext ?? ''}${v.instancePath}`,
      message: v.message,
    }));
    const named = namedValidationError(fe.validation);
    return {
      statusCode: 400,
      errorCode: named?.code ?? 'invalidInput',
      message: named?.message ?? 'The request does not match the schema',
      ...(issues ? { data: { issues } } : {}),
    };
  }
  const status = typeof fe.statusCode === 'number' ? fe.statusCode : 500;
  const code = status < 500 ? CODE_BY_STATUS[status] : undefined;
  if (code) {
    return { statusCode: status, errorCode: code, message: fe.message ?? code };
  }
  return {
    statusCode: 500,
    errorCode: 'generic',
    message: 'An unexpected error occurred',
    requestId,
  };
}

/** One handler for every error: the stack goes to the log, never to the client. */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: unknown, request: FastifyRequest, reply: FastifyReply) => {
    const body = toErrorBody(error, request.id);
    if (body.statusCode >= 500) {
      request.log.error({ err: error, requestId: request.id }, 'request failed');
    } else {
      request.log.info(
        { errorCode: body.errorCode, statusCode: body.statusCode },
        'request refused',
      );
    }
    // Every error names its request, as the X-Request-Id header and the log lines do.
    return reply.status(body.statusCode).send({ ...body, requestId: request.id });
  });
}

/**
 * Fastify's `frameworkErrors`: what it refuses before any route runs, so before the error handler
 * sees it, answered with the same body as every other error. A path segment longer than Fastify
 * reads (100 characters, far more than any id, alias or token) is a resource that cannot exist:
 * 404 notFound, as a malformed id is; a broken percent-encoding is 400 invalidRequest. No hook
 * runs for these, so the headers every API answer carries are set here.
 */
export function answerFrameworkError(
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
): void {
  const body: ErrorBody =
    error.code === 'FST_ERR_MAX_PARAM_LENGTH'
      ? {
          statusCode: 404,
          errorCode: 'notFound',
          message: 'A part of the path is too long to exist',
        }
      : toErrorBody(error, request.id);
  if (body.statusCode >= 500) {
    request.log.error({ err: error, requestId: request.id }, 'request failed');
  }
  void reply
    .status(body.statusCode)
    .header('Cache-Control', 'no-store')
    .header('X-Content-Type-Options', 'nosniff')
    .header('Permissions-Policy', PERMISSIONS_POLICY)
    .header('X-Request-Id', request.id)
    .send({ ...body, requestId: request.id });
}

export function notFoundBody(method: string, url: string, requestId?: string): ErrorBody {
  return {
    statusCode: 404,
    errorCode: 'notFound',
    message: `No route ${method} ${url}`,
    ...(requestId === undefined ? {} : { requestId }),
  };
}
