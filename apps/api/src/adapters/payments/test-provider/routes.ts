import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { digitsOf, behaviourOf, isValidCardNumber, isValidCvc, validExpiry } from './cards';
import {
  CHECKOUT_CSS,
  CHECKOUT_CSS_PATH,
  pageLang,
  renderCheckoutPage,
  renderDonePage,
  renderNotFoundPage,
  type FormErrors,
} from './page';
import type { TestProvider } from './provider';
import { findProviderPayment } from './store';
import type { Db } from '../../../db/client';

/** Provider payment ids look like `tp_<24 hex>`; anything else is not one of ours. */
const PAYMENT_ID = /^tp_[0-9a-f]{24}$/;

/**
 * A CSP of the provider's own for its pages: nothing but the one stylesheet, and the form may
 * post only to the provider. The redirect after the POST leaves for the app (another origin in
 * development), which browsers check against form-action too, so that origin is allowed.
 */
function contentSecurityPolicy(returnOrigin: string | null): string {
  const formAction = ["'self'", returnOrigin].filter(Boolean).join(' ');
  return [
    "default-src 'none'",
    "style-src 'self'",
    "img-src 'self' data:",
    `form-action ${formAction}`,
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join('; ');
}

function originOf(url: string | null): string | null {
  if (!url) return null;
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}

function sendHtml(reply: FastifyReply, status: number, html: string, returnUrl: string | null) {
  return reply
    .code(status)
    .header('cache-control', 'no-store')
    .header('content-security-policy', contentSecurityPolicy(originOf(returnUrl)))
    .type('text/html; charset=utf-8')
    .send(html);
}

const stringOf = (value: unknown) => (typeof value === 'string' ? value : '');

/**
 * The test provider's hosted card page, under its own path as a real provider's would be on its
 * own host. Hidden from OpenAPI: not part of our API.
 */
export const testProviderRoutes: FastifyPluginAsync<{
  provider: TestProvider;
  db: Db;
  now: () => Date;
}> = async (app, { provider, db, now }) => {
  // Plain HTML forms post urlencoded bodies; only these routes accept them.
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 4096 },
    (_request, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(String(body))));
    },
  );

  app.get(CHECKOUT_CSS_PATH, { schema: { hide: true } }, async (_request, reply) =>
    reply
      .header('cache-control', 'public, max-age=3600')
      .type('text/css; charset=utf-8')
      .send(CHECKOUT_CSS),
  );

  app.get<{ Params: { id: string }; Querystring: { lang?: string } }>(
    '/test-provider/checkout/:id',
    { schema: { hide: true } },
    async (request, reply) => {
      const lang = pageLang(request.query.lang, request.headers['accept-language']);
      const id = request.params.id;
      const payment = PAYMENT_ID.test(id) ? await findProviderPayment(db, id) : undefined;
      if (!payment || payment.kind === 'agreement_charge') {
        return sendHtml(reply, 404, renderNotFoundPage(lang), null);
      }
      if (payment.state !== 'created') {
        return sendHtml(reply, 200, renderDonePage(payment, lang), payment.returnUrl);
      }
      return sendHtml(reply, 200, renderCheckoutPage(payment, lang), payment.returnUrl);
    },
  );

  app.post<{ Params: { id: string }; Body: Record<string, unknown> | undefined }>(
    '/test-provider/checkout/:id',
    { schema: { hide: true } },
    async (request, reply) => {
      const body = request.body ?? {};
      const lang = pageLang(body.lang, request.headers['accept-language']);
      const id = request.params.id;
      const payment = PAYMENT_ID.test(id) ? await findProviderPayment(db, id) : undefined;
      if (!payment || payment.kind === 'agreement_charge') {
        return sendHtml(reply, 404, renderNotFoundPage(lang), null);
      }
      let card = null;
      if (stringOf(body.action) !== 'cancel') {
        const number = digitsOf(stringOf(body.number));
        const expiry = validExpiry(stringOf(body.expiry), now());
        const errors: FormErrors = {
          ...(isValidCardNumber(number) ? {} : { number: true }),
          ...(expiry ? {} : { expiry: true }),
          ...(isValidCvc(stringOf(body.cvc)) ? {} : { cvc: true }),
        };
        if (Object.keys(errors).length > 0 || !expiry) {
          if (payment.state !== 'created') {
            return sendHtml(reply, 200, renderDonePage(payment, lang), payment.returnUrl);
          }
          const values = { number: stringOf(body.number), expiry: stringOf(body.expiry) };
          return sendHtml(
            reply,
            422,
            renderCheckoutPage(payment, lang, errors, values),
            payment.returnUrl,
          );
        }
        card = { number, expiry, behaviour: behaviourOf(number) };
      }
      const after = await provider.submit(id, card);
      if (!after) return sendHtml(reply, 404, renderNotFoundPage(lang), null);
      if (!after.returnUrl) return sendHtml(reply, 200, renderDonePage(after, lang), null);
      return reply
        .header('cache-control', 'no-store')
        .header('content-security-policy', contentSecurityPolicy(originOf(after.returnUrl)))
        .redirect(after.returnUrl, 303);
    },
  );
};
