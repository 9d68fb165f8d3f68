import type { ErrorBody, ErrorCode } from '@raccolta/contracts';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { AppError } from './app-error.js';

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
    // A refused e-mail address is named as such (spec §8), whatever else is wrong.
    const badEmail = fe.validation?.some((v) => v.message === 'invalidEmail') === true;
    return {
      statusCode: 400,
      errorCode: badEmail ? 'invalidEmail' : 'invalidInput',
      message: badEmail
        ? 'The e-mail address is not valid'
        : 'The request does not match the schema',
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
    return reply.status(body.statusCode).send(body);
  });
}

export function notFoundBody(method: string, url: string): ErrorBody {
  return { statusCode: 404, errorCode: 'notFound', message: `No route ${method} ${url}` };
}
