import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helper';

const FINGERPRINT = Array.from({ length: 32 }, (_, i) => (i + 16).toString(16).toUpperCase()).join(
  ':',
);

describe('native app links: /.well-known association files (ADR 0054)', () => {
  let configured: TestApp;
  let bare: TestApp;
  beforeAll(async () => {
    configured = await createTestApp({
      ANDROID_APP_CERT_SHA256: FINGERPRINT.toLowerCase(),
      IOS_APP_ID: 'ABCDE12345.fo.alda.selfcare',
    });
    bare = await createTestApp();
  });
  afterAll(async () => {
    await configured.close();
    await bare.close();
  });

  it('Android Digital Asset Links name the app and its signing certificate, for links and passkeys', async () => {
    const res = await configured.app.inject({ method: 'GET', url: '/.well-known/assetlinks.json' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.json()).toEqual([
      {
        relation: [
          'delegate_permission/common.handle_all_urls',
          'delegate_permission/common.get_login_creds',
        ],
        target: {
          namespace: 'android_app',
          package_name: 'fo.alda.selfcare',
          sha256_cert_fingerprints: [FINGERPRINT],
        },
      },
    ]);
  });

  it("Apple's app-site-association claims the card page's return and the password-reset link, and shares the passkeys, as JSON", async () => {
    const res = await configured.app.inject({
      method: 'GET',
      url: '/.well-known/apple-app-site-association',
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.json()).toEqual({
      applinks: {
        details: [
          {
            appIDs: ['ABCDE12345.fo.alda.selfcare'],
            components: [{ '/': '/betaling/*' }, { '/': '/nytt-loyniord' }],
          },
        ],
      },
      webcredentials: { apps: ['ABCDE12345.fo.alda.selfcare'] },
    });
  });

  it('without a configured app both are 404, so no app can claim the links', async () => {
    for (const url of ['/.well-known/assetlinks.json', '/.well-known/apple-app-site-association']) {
      const res = await bare.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(404);
      expect(res.json().error.code).toBe('NOT_FOUND');
    }
  });

  it('a malformed fingerprint or app id is refused at start-up', async () => {
    await expect(createTestApp({ ANDROID_APP_CERT_SHA256: 'AB:CD' })).rejects.toThrow(
      /ANDROID_APP_CERT_SHA256/,
    );
    await expect(createTestApp({ IOS_APP_ID: 'fo.alda.selfcare' })).rejects.toThrow(/IOS_APP_ID/);
  });
});
