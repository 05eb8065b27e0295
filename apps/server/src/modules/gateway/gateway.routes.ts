import { createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  BrokerAclRequestSchema,
  BrokerAuthRequestSchema,
  OPERATOR_SIGNATURE_HEADER,
  OPERATOR_TIMESTAMP_HEADER,
  OperatorPushSchema,
  topicOf,
} from '@vigil/contract';
import type { Clock } from '../../clock.ts';
import { bearerMatches } from '../../http/metrics-endpoint.ts';
import { userNameFits } from './broker/device-gate.ts';
import type { DeviceGateway } from './device-gateway.ts';

export interface GatewayRouteOptions {
  gateway: Pick<DeviceGateway, 'gate' | 'ingest'>;
  clock: Clock;
  /** Bearer token the broker's HTTP authenticator sends; undefined: /mqtt/* is off. */
  authToken: string | undefined;
  /** The server's own login at the external broker (from MQTT_URL): allowed everything. */
  serverLogin: { username: string; password: string } | undefined;
  /** Shared secret of operator pushes; undefined: the push endpoint is off. */
  pushSecret: string | undefined;
}

const MAX_SKEW_S = 5 * 60;

const sameText = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

/** A JSON or form body as an object (the broker plugins send either). */
const bodyOf = (request: FastifyRequest): unknown => {
  const raw = request.body;
  if (Buffer.isBuffer(raw)) {
    const text = raw.toString('utf8');
    if (/^\s*\{/.test(text)) {
      try {
        return JSON.parse(text);
      } catch {
        return undefined;
      }
    }
    return Object.fromEntries(new URLSearchParams(text));
  }
  return raw;
};

/**
 * The gateway's HTTP ways in, outside the console's call contract: the auth/ACL endpoint an
 * external broker calls for every device CONNECT, PUBLISH and SUBSCRIBE (docs/operations.md),
 * and the signed push of operator IoT platforms for NB-IoT/4G devices (docs/device-protocol.md).
 * Both answer plain JSON for machines; both are off unless their secret is configured.
 */
export const registerGatewayRoutes = async (app: FastifyInstance, options: GatewayRouteOptions): Promise<void> => {
  const { gateway } = options;
  await app.register(async (scope) => {
    // Raw bodies: the push's signature covers the exact bytes; the broker may send JSON or a form.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: 1024 * 1024 }, (_request, body, done) =>
      done(null, body),
    );

    const brokerOnly = (request: FastifyRequest, reply: FastifyReply): boolean => {
      if (options.authToken && bearerMatches(request.headers.authorization, options.authToken)) return true;
      void reply.code(401).send({ result: 'deny' });
      return false;
    };
    const allow = (reply: FastifyReply, superuser = false) =>
      reply.code(200).send({ result: 'allow', is_superuser: superuser });
    const deny = (reply: FastifyReply) => reply.code(403).send({ result: 'deny' });
    const isServer = (username: string | undefined, password?: string) =>
      options.serverLogin !== undefined &&
      username !== undefined &&
      sameText(username, options.serverLogin.username) &&
      (password === undefined || sameText(password, options.serverLogin.password));

    if (options.authToken) {
      scope.post('/mqtt/auth', async (request, reply) => {
        if (!brokerOnly(request, reply)) return reply;
        const parsed = BrokerAuthRequestSchema.safeParse(bodyOf(request));
        if (!parsed.success) return deny(reply);
        const { clientid, username, password, peerhost, ipaddress } = parsed.data;
        if (password !== undefined && isServer(username, password)) return allow(reply, true);
        // The device's address as the broker saw it; the caller is the broker, whose address stands
        // for every device and must never be locked out (decision 0030).
        const verdict = await gateway.gate.authenticate(clientid, username, password, peerhost ?? ipaddress);
        return verdict.ok ? allow(reply) : deny(reply);
      });

      scope.post('/mqtt/acl', async (request, reply) => {
        if (!brokerOnly(request, reply)) return reply;
        const parsed = BrokerAclRequestSchema.safeParse(bodyOf(request));
        if (!parsed.success) return deny(reply);
        const { clientid, username, topic, action, acc } = parsed.data;
        if (isServer(username)) return allow(reply);
        const deviceId = clientid.toUpperCase();
        // As at CONNECT: the user name, when given, is the client id (issue 28).
        if (!userNameFits(username, deviceId)) {
          gateway.gate.refuseUserName(deviceId, topic);
          return deny(reply);
        }
        const subscribing = action === 'subscribe' || acc === 4 || acc === 1;
        const ok = subscribing
          ? await gateway.gate.maySubscribe(deviceId, topic)
          : await gateway.gate.mayPublish(deviceId, topic);
        return ok ? allow(reply) : deny(reply);
      });
    }

    const secret = options.pushSecret;
    if (secret) {
      scope.post('/device/operatorPush', async (request, reply) => {
        const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        const timestamp = String(request.headers[OPERATOR_TIMESTAMP_HEADER] ?? '');
        const signature = String(request.headers[OPERATOR_SIGNATURE_HEADER] ?? '');
        const expected = `sha256=${createHmac('sha256', secret).update(`${timestamp}.`).update(raw).digest('hex')}`;
        const skew = Math.abs(options.clock.now().getTime() / 1000 - Number(timestamp));
        if (!/^\d{10}$/.test(timestamp) || !(skew <= MAX_SKEW_S) || !sameText(signature, expected)) {
          return reply.code(401).send({ result: 'refused', reason: 'signature' });
        }
        let body: unknown;
        try {
          body = JSON.parse(raw.toString('utf8'));
        } catch {
          return reply.code(400).send({ result: 'refused', reason: 'json' });
        }
        const parsed = OperatorPushSchema.safeParse(body);
        if (!parsed.success) {
          const issue = parsed.error.issues[0];
          return reply
            .code(400)
            .send({ result: 'refused', reason: 'schema', detail: `${issue?.path.join('.')}: ${issue?.message}` });
        }
        const results = [];
        for (const m of parsed.data.messages) {
          const bytes = Buffer.from(JSON.stringify(m.payload));
          try {
            results.push(await gateway.ingest.handle(topicOf(m.deviceId.toUpperCase(), m.kind), bytes));
          } catch {
            // Not stored: the platform must push it again (the answer says which).
            results.push({ result: 'retry' as const });
          }
        }
        const retry = results.some((r) => r.result === 'retry');
        return reply.code(retry ? 503 : 200).send({ result: retry ? 'retry' : 'ok', messages: results });
      });
    }
  });
};
