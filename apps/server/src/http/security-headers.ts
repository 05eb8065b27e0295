import type { FastifyInstance } from 'fastify';

/**
 * The console keeps its session token in local storage, so an injected script could read it:
 * scripts run only from our own origin (no inline code, no eval). antd writes its CSS-in-JS
 * into <style> elements, hence 'unsafe-inline' for styles only. Images may be data:/blob:
 * (QR codes, logo previews); the socket and API are same-origin.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self'",
  "manifest-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
  'permissions-policy': 'camera=(), microphone=(), geolocation=(), payment=()',
};

/**
 * Every answer (console, API, files, errors) carries the headers. A route that sets its own
 * policy keeps it: Swagger UI at /docs sets a policy with hashes for its inline scripts.
 */
export const registerSecurityHeaders = (app: FastifyInstance): void => {
  app.addHook('onSend', async (_request, reply, payload) => {
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) {
      if (!reply.hasHeader(name)) reply.header(name, value);
    }
    return payload;
  });
};
