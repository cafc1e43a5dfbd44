import type { FastifyInstance } from 'fastify';
import { NATIVE_APP_ID } from '@alda/contract/constants';
import { APP_LINK_PATHS } from '@alda/contract/app-paths';
import { AppError } from '../../errors';

export interface AppLinkOptions {
  /** SHA-256 fingerprints of the Android app's signing certificates; none: no App Links. */
  androidCertSha256: string[];
  /** `<TEAM ID>.<bundle id>` of the iOS app; null: no Universal Links. */
  iosAppId: string | null;
}

/**
 * The two files the phone's OS fetches from the web app's domain to let the native app open its
 * links (ADR 0054): Android's Digital Asset Links and Apple's app-site-association. With them
 * the card page's return to `<APP_URL>/betaling/<order>` and a password-reset e-mail open the
 * app instead of the browser. Both also let the app use the domain's passkeys (WebAuthn with the
 * domain as relying party): Android's `delegate_permission/common.get_login_creds` relation
 * (Credential Manager shares the website's credentials with the app) and Apple's
 * `webcredentials` service (the Associated Domains entitlement's `webcredentials:` entry).
 * Served as JSON without redirects, as both platforms require.
 */
export async function appLinkRoutes(app: FastifyInstance, options: AppLinkOptions) {
  app.get('/.well-known/assetlinks.json', { schema: { hide: true } }, async (_request, reply) => {
    if (options.androidCertSha256.length === 0) throw new AppError('NOT_FOUND');
    return reply.header('cache-control', 'public, max-age=3600').send([
      {
        // App Links, and the website's sign-in credentials (passkeys) for the app.
        relation: [
          'delegate_permission/common.handle_all_urls',
          'delegate_permission/common.get_login_creds',
        ],
        target: {
          namespace: 'android_app',
          package_name: NATIVE_APP_ID,
          sha256_cert_fingerprints: options.androidCertSha256,
        },
      },
    ]);
  });

  app.get(
    '/.well-known/apple-app-site-association',
    { schema: { hide: true } },
    async (_request, reply) => {
      if (options.iosAppId === null) throw new AppError('NOT_FOUND');
      return reply
        .header('cache-control', 'public, max-age=3600')
        .type('application/json')
        .send({
          applinks: {
            details: [
              {
                appIDs: [options.iosAppId],
                components: APP_LINK_PATHS.map((path) => ({ '/': path })),
              },
            ],
          },
          // Passkeys of the domain in the app (Associated Domains' `webcredentials:` entry).
          webcredentials: { apps: [options.iosAppId] },
        });
    },
  );
}
