import { z } from 'zod';
import type { CallDef } from './call.ts';
import { calls } from './catalogue.ts';
import { FAILURE_DATA } from './failures.ts';
import { Status } from './status.ts';

type JsonSchema = Record<string, unknown>;

const toSchema = (schema: z.ZodType, io: 'input' | 'output'): JsonSchema => {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonSchema;
  return rest;
};

const envelopeOf = (data: JsonSchema): JsonSchema => ({
  type: 'object',
  required: ['status', 'msg', 'data'],
  properties: {
    status: {
      type: 'integer',
      description: `Inner status: ${Object.entries(Status)
        .map(([k, v]) => `${v} ${k}`)
        .join(', ')}`,
    },
    msg: { type: 'string', description: 'Localised by Accept-Language' },
    data: {
      anyOf: [data, { type: 'null' }],
      description:
        'On success the result; on failure null, or for the message keys under components.schemas `Failure.<msgKey>` that shape',
    },
    msgKey: { type: 'string', description: 'Message key of a failure' },
    field: { type: 'string', description: 'Request field a failure is about, e.g. `name` or `contacts.0.phone`' },
  },
});

/** A multipart request: its form fields as declared, the uploaded file (not representable in JSON) as binary. */
const multipartSchema = (request: JsonSchema): JsonSchema => {
  const props = (request.properties ?? {}) as Record<string, JsonSchema>;
  return {
    ...request,
    type: 'object',
    properties: Object.fromEntries(
      Object.entries(props).map(([field, schema]) => [
        field,
        field === 'file' ? { type: 'string', format: 'binary', description: 'The uploaded file' } : schema,
      ]),
    ),
  };
};

const operation = (name: string, call: CallDef): JsonSchema => {
  const request = toSchema(call.request, 'input');
  const security = call.auth === 'public' ? [] : call.auth === 'optional' ? [{}, { token: [] }] : [{ token: [] }];
  const roles = Array.isArray(call.auth) ? ` Roles: ${call.auth.join(', ')}.` : '';
  const op: JsonSchema = {
    operationId: name,
    summary: call.summary,
    description: `${call.summary}.${roles}${call.loginSensitive ? ' Login-sensitive: inner 100/101 end the session.' : ''}`,
    tags: [call.tag],
    security,
    responses: {
      '200':
        call.produces === 'binary'
          ? {
              description: 'File bytes',
              content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } },
            }
          : {
              description: 'Envelope',
              content: { 'application/json': { schema: envelopeOf(toSchema(call.result, 'output')) } },
            },
      ...(call.auth === 'public' ? {} : { '401': { description: 'Missing, unknown or revoked token' } }),
    },
  };
  if (call.input === 'query') {
    const props = (request.properties ?? {}) as Record<string, JsonSchema>;
    const required = new Set((request.required ?? []) as string[]);
    op.parameters = Object.entries(props).map(([pname, schema]) => ({
      name: pname,
      in: 'query',
      required: required.has(pname),
      schema,
    }));
  } else {
    const mediaType =
      call.input === 'json'
        ? 'application/json'
        : call.input === 'form'
          ? 'application/x-www-form-urlencoded'
          : 'multipart/form-data';
    const schema = call.input === 'multipart' ? multipartSchema(request) : request;
    op.requestBody = { required: true, content: { [mediaType]: { schema } } };
  }
  if (call.creates) {
    op.parameters = [
      ...((op.parameters as JsonSchema[] | undefined) ?? []),
      {
        name: 'Idempotency-Key',
        in: 'header',
        required: false,
        description:
          'One value per user action (1 to 128 visible ASCII characters); a repeat within 24 hours replays the first answer.',
        schema: { type: 'string', minLength: 1, maxLength: 128 },
      },
    ];
  }
  return op;
};

/** The OpenAPI 3.1 document of every declared call. */
export const buildOpenApi = (version: string): JsonSchema => {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const [name, call] of Object.entries(calls) as [string, CallDef][]) {
    const item = (paths[call.path] ??= {});
    item[call.method.toLowerCase()] = operation(name, call);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Vigil API',
      version,
      description:
        'Every answer is HTTP 200 with an envelope {status, msg, data}; status 200 is success. ' +
        'Send the session token in X-Token (or Authorization: Bearer). See docs/api-conventions.md.',
    },
    components: {
      securitySchemes: { token: { type: 'apiKey', in: 'header', name: 'X-Token' } },
      schemas: Object.fromEntries(
        Object.entries(FAILURE_DATA).map(([key, schema]) => [`Failure.${key}`, toSchema(schema, 'output')]),
      ),
    },
    paths,
  };
};
