import { readFile } from 'node:fs/promises';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../errors';
import { imageKind, processAttachment } from './images';

/*
 * Issue 46 "Images are resized and their EXIF, including location, is removed on the server",
 * and only images get in: the bytes decide, not the name or the declared type.
 */

/** A photo as a phone takes it: JPEG with EXIF, a GPS position and an orientation. */
async function phonePhoto(width: number, height: number, orientation = 1) {
  return sharp({ create: { width, height, channels: 3, background: '#4a7' } })
    .withMetadata({ orientation })
    .withExifMerge({
      IFD0: { Make: 'Phone', Model: 'Camera 1' },
      IFD3: {
        GPSLatitudeRef: 'N',
        GPSLatitude: '62/1 0/1 41/1',
        GPSLongitudeRef: 'W',
        GPSLongitude: '6/1 46/1 3/1',
      },
    })
    .jpeg()
    .toBuffer();
}

async function refusal(bytes: Uint8Array, options?: { maxPixels?: number }) {
  try {
    await processAttachment(bytes, options);
  } catch (error) {
    if (error instanceof AppError) return error.code;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('support images (issue 46 §1, §3)', () => {
  it('removes EXIF with the location and fits a large photo into 1600 px, keeping its shape', async () => {
    const input = await phonePhoto(3000, 2000);
    const before = await sharp(input).metadata();
    expect(before.exif).toBeDefined();

    const out = await processAttachment(input);
    expect(out.contentType).toBe('image/jpeg');
    expect([out.width, out.height]).toEqual([1600, 1067]);
    const after = await sharp(out.bytes).metadata();
    expect(after.format).toBe('jpeg');
    expect(after.exif).toBeUndefined();
    expect(after.xmp).toBeUndefined();
    expect(after.iptc).toBeUndefined();
    expect(Buffer.from(out.bytes).includes('Camera 1')).toBe(false);
  });

  it('turns a photo taken sideways upright and drops the orientation tag', async () => {
    expect((await sharp(await phonePhoto(400, 200, 6)).metadata()).orientation).toBe(6);
    const out = await processAttachment(await phonePhoto(400, 200, 6));
    expect([out.width, out.height]).toEqual([200, 400]);
    expect((await sharp(out.bytes).metadata()).orientation).toBeUndefined();
  });

  it('keeps a PNG screenshot a PNG, small ones at their size, without metadata', async () => {
    const png = await sharp({
      create: { width: 300, height: 600, channels: 4, background: '#fff' },
    })
      .withExif({ IFD0: { Software: 'Screenshot tool' } })
      .png()
      .toBuffer();
    const out = await processAttachment(png);
    expect(out).toMatchObject({ contentType: 'image/png', width: 300, height: 600 });
    expect((await sharp(out.bytes).metadata()).exif).toBeUndefined();
  });

  it('turns an iPhone HEIC into a JPEG', async () => {
    // Made once with Debian's libheif-examples: `heif-enc -q 30 -o green-64x48.heic <64×48 PNG>`.
    const heic = await readFile(new URL('./__fixtures__/green-64x48.heic', import.meta.url));
    expect(imageKind(heic)).toBe('heic');
    const out = await processAttachment(heic);
    expect(out).toMatchObject({ contentType: 'image/jpeg', width: 64, height: 48 });
    expect((await sharp(out.bytes).metadata()).format).toBe('jpeg');
  });

  it('refuses what is not an image by its bytes, whatever it is called', async () => {
    expect(await refusal(new TextEncoder().encode('hello, this is a .jpg'))).toBe(
      'ATTACHMENT_TYPE_NOT_ALLOWED',
    );
    const gif = await sharp({ create: { width: 2, height: 2, channels: 3, background: '#000' } })
      .gif()
      .toBuffer();
    expect(await refusal(gif)).toBe('ATTACHMENT_TYPE_NOT_ALLOWED');
    expect(await refusal(new TextEncoder().encode('%PDF-1.7\n'))).toBe(
      'ATTACHMENT_TYPE_NOT_ALLOWED',
    );
    const svg = new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"></svg>');
    expect(await refusal(svg)).toBe('ATTACHMENT_TYPE_NOT_ALLOWED');
  });

  it('refuses a damaged image, a decompression bomb and anything over 5 MB', async () => {
    const header = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
    expect(await refusal(header)).toBe('ATTACHMENT_UNREADABLE');
    const big = await sharp({
      create: { width: 2000, height: 2000, channels: 3, background: '#000' },
    })
      .png()
      .toBuffer();
    expect(await refusal(big, { maxPixels: 1_000_000 })).toBe('ATTACHMENT_UNREADABLE');
    const tooLarge = new Uint8Array(5 * 1024 * 1024 + 1);
    tooLarge.set([0xff, 0xd8, 0xff]);
    expect(await refusal(tooLarge)).toBe('ATTACHMENT_TOO_LARGE');
  });
});
