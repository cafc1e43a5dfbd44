// `npm run native:assets`: the app icons and splash screens of both native projects, light and
// dark, from one source image, assets/logo.svg (the Alda mark of src/shared/ui/splash-markup.ts
// on a transparent square), with @capacitor/assets (issue 15). Run it when the mark or the
// colours change, and commit what it writes under android/ and ios/.
import { readdir, rename } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import capacitorConfig from '../capacitor.config';
import { runBin } from './run';
import { WEB_APP_DIR } from './settings';

/** The splash background the SplashScreen plugin shows (ocean-900), also the icon's. */
const BRAND = capacitorConfig.plugins?.SplashScreen?.backgroundColor;
/** The dark variant: ocean-950 of src/styles.css. */
const BRAND_DARK = '#061b26';

if (typeof BRAND !== 'string') {
  throw new Error('capacitor.config.ts has no SplashScreen.backgroundColor');
}

runBin(
  '@capacitor/assets',
  'capacitor-assets',
  [
    'generate',
    '--android',
    '--ios',
    '--assetPath',
    'assets',
    '--iconBackgroundColor',
    BRAND,
    '--iconBackgroundColorDark',
    BRAND_DARK,
    '--splashBackgroundColor',
    BRAND,
    '--splashBackgroundColorDark',
    BRAND_DARK,
    // The mark about as large as the web splash's (64 px on a phone) on the splash screens.
    '--logoSplashScale',
    '0.25',
  ],
  { cwd: WEB_APP_DIR },
);

/**
 * The generator leaves Android's pre-8.0 launcher icons (mipmap-*\/ic_launcher.png and
 * ic_launcher_round.png; Android 8+ takes the adaptive icon) as the bare mark on transparency:
 * here they get the brand background, a rounded square and a circle, like the adaptive icon.
 */
async function legacyIconBackgrounds(resDir: string, colour: string): Promise<void> {
  const dirs = (await readdir(resDir)).filter(
    (name) => name.startsWith('mipmap-') && !name.includes('anydpi'),
  );
  for (const dir of dirs) {
    for (const [file, shape] of [
      ['ic_launcher.png', 'square'],
      ['ic_launcher_round.png', 'circle'],
    ] as const) {
      const icon = path.join(resDir, dir, file);
      const { width = 0, height = 0 } = await sharp(icon).metadata();
      const backdrop =
        shape === 'circle'
          ? `<circle cx="${width / 2}" cy="${height / 2}" r="${width / 2}" fill="${colour}"/>`
          : `<rect width="${width}" height="${height}" rx="${width * 0.18}" fill="${colour}"/>`;
      const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">${backdrop}</svg>`;
      await sharp(Buffer.from(svg))
        .composite([{ input: icon }])
        .png()
        .toFile(`${icon}.tmp`);
      await rename(`${icon}.tmp`, icon);
    }
  }
}

await legacyIconBackgrounds(path.join(WEB_APP_DIR, 'android/app/src/main/res'), BRAND);
