import { readFile } from 'node:fs/promises';
import sharp from 'sharp';
import { describe, expect, it, vi } from 'vitest';
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

/** The tags of an EXIF block's first directory (IFD0), to see that a GPS directory hangs off it. */
function ifd0Tags(exif: Buffer): number[] {
  // A JPEG's APP1 block starts with "Exif\0\0"; the block libheif reads from a HEIF does not.
  const tiff = exif.subarray(exif.toString('latin1', 0, 4) === 'Exif' ? 6 : 0);
  const little = tiff.toString('latin1', 0, 2) === 'II';
  const u16 = (at: number) => (little ? tiff.readUInt16LE(at) : tiff.readUInt16BE(at));
  const u32 = (at: number) => (little ? tiff.readUInt32LE(at) : tiff.readUInt32BE(at));
  const ifd0 = u32(4);
  return Array.from({ length: u16(ifd0) }, (_, i) => u16(ifd0 + 2 + i * 12));
}
const GPS_IFD_POINTER = 0x8825;

async function refused(bytes: Uint8Array, options?: { maxPixels?: number }) {
  try {
    await processAttachment(bytes, options);
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}
const refusal = async (bytes: Uint8Array, options?: { maxPixels?: number }) =>
  (await refused(bytes, options)).code;
const causeOf = (error: AppError) => (error.cause instanceof Error ? error.cause.message : '');

describe('support images (issue 46 §1, §3)', () => {
  it('removes EXIF with the location and fits a large photo into 1600 px, keeping its shape', async () => {
    const input = await phonePhoto(3000, 2000);
    const before = await sharp(input).metadata();
    expect(before.exif).toBeDefined();
    expect(ifd0Tags(before.exif ?? Buffer.alloc(0))).toContain(GPS_IFD_POINTER);

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

  it('turns a phone HEIC (HEVC, with EXIF and GPS) into a JPEG without EXIF', async () => {
    // Made once with Debian's libheif-examples 1.15: a 64×48 JPEG, left half red and right half
    // blue, with the EXIF of phonePhoto() (Make, Model, GPS), then `heif-enc -q 30 -o
    // phone-64x48-gps.heic source.jpg`; heif-enc copies the JPEG's EXIF into the HEIF.
    const heic = await readFile(new URL('./__fixtures__/phone-64x48-gps.heic', import.meta.url));
    expect(imageKind(heic)).toBe('heic');
    const before = await sharp(heic).metadata();
    expect(before).toMatchObject({ compression: 'hevc', width: 64, height: 48 });
    expect(ifd0Tags(before.exif ?? Buffer.alloc(0))).toContain(GPS_IFD_POINTER);

    const out = await processAttachment(heic);
    expect(out).toMatchObject({ contentType: 'image/jpeg', width: 64, height: 48 });
    const after = await sharp(out.bytes).metadata();
    expect(after.format).toBe('jpeg');
    expect(after.exif).toBeUndefined();
    expect(Buffer.from(out.bytes).includes('Camera 1')).toBe(false);
    // The RGBA from the wasm decoder reaches sharp in the right channel order.
    const { data } = await sharp(out.bytes).raw().toBuffer({ resolveWithObject: true });
    const rgb = (x: number, y: number) => [
      ...data.subarray((y * 64 + x) * 3, (y * 64 + x) * 3 + 3),
    ];
    const [lr = 0, lg = 0, lb = 0] = rgb(8, 24);
    const [rr = 0, rg = 0, rb = 0] = rgb(56, 24);
    expect(lr).toBeGreaterThan(Math.max(lg, lb) + 100);
    expect(rb).toBeGreaterThan(Math.max(rr, rg) + 100);
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
    // An ISO BMFF file of another brand (AVIF, MP4) is not a HEIC, although it has a ftyp box.
    const avif = Uint8Array.from([0, 0, 0, 0x18, ...Buffer.from('ftypavif'), 0, 0, 0, 0]);
    expect(await refusal(avif)).toBe('ATTACHMENT_TYPE_NOT_ALLOWED');
  });

  it('refuses a damaged image, a decompression bomb and anything over 5 MB', async () => {
    const header = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
    expect(await refusal(header)).toBe('ATTACHMENT_UNREADABLE');

    // A HEIC cut off after its ftyp box; libheif-js reports it with console.log.
    const fixture = await readFile(new URL('./__fixtures__/phone-64x48-gps.heic', import.meta.url));
    const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    try {
      expect(await refusal(fixture.subarray(0, 40))).toBe('ATTACHMENT_UNREADABLE');
    } finally {
      log.mockRestore();
    }

    const big = await sharp({
      create: { width: 2000, height: 2000, channels: 3, background: '#000' },
    })
      .png()
      .toBuffer();
    expect(await refusal(big, { maxPixels: 1_000_000 })).toBe('ATTACHMENT_UNREADABLE');

    // A small JPEG whose header claims 20000 × 20000 (400 megapixels): refused by the default
    // limit from the header alone, before a pixel is decoded.
    const bomb = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#000' } })
      .jpeg()
      .toBuffer();
    const sof = bomb.indexOf(Buffer.from([0xff, 0xc0]));
    bomb.writeUInt16BE(20_000, sof + 5);
    bomb.writeUInt16BE(20_000, sof + 7);
    expect((await sharp(bomb, { limitInputPixels: false }).metadata()).width).toBe(20_000);
    const jpegBomb = await refused(bomb);
    expect(jpegBomb.code).toBe('ATTACHMENT_UNREADABLE');
    expect(causeOf(jpegBomb)).toMatch(/pixel limit/);

    // The same for a HEIC: its size is checked before the wasm decoder allocates its pixels.
    const heicBomb = await refused(fixture, { maxPixels: 64 * 48 - 1 });
    expect(heicBomb.code).toBe('ATTACHMENT_UNREADABLE');
    expect(causeOf(heicBomb)).toMatch(/exceeds the pixel limit/);
    const tooLarge = new Uint8Array(5 * 1024 * 1024 + 1);
    tooLarge.set([0xff, 0xd8, 0xff]);
    expect(await refusal(tooLarge)).toBe('ATTACHMENT_TOO_LARGE');
  });
});
