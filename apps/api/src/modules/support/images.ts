import sharp from 'sharp';
import decodeHeic from 'heic-decode';
import { SUPPORT_ATTACHMENT_MAX_BYTES } from '@alda/contract/schemas/support';
import { AppError } from '../../errors';

/*
 * The images a customer sends to the desk (issue 46, ADR 0088). The type is read from the bytes
 * (magic numbers), never from a name or a declared type. Every image is decoded, turned upright
 * by its EXIF orientation, fitted into 1600 × 1600 and encoded again from its pixels, so nothing
 * of the original file survives: no EXIF (location included), XMP, IPTC or trailing data.
 * JPEG and HEIC come out as JPEG, PNG (a screenshot) as PNG. sharp (libvips) does the work;
 * HEIC, whose HEVC codec libvips' prebuilt binaries leave out, is decoded to pixels first by
 * heic-decode (libheif as WebAssembly).
 */

/** The longest side of a kept image. */
export const IMAGE_MAX_SIDE = 1600;
/** Images with more pixels than this are refused before they are decoded (decompression bombs). */
export const IMAGE_MAX_PIXELS = 50_000_000;

export type ImageKind = 'jpeg' | 'png' | 'heic';

export interface ProcessedImage {
  bytes: Uint8Array;
  contentType: 'image/jpeg' | 'image/png';
  width: number;
  height: number;
}

const HEIF_BRANDS = new Set(['heic', 'heix', 'hevc', 'hevx', 'mif1', 'msf1', 'heim', 'heis']);

/** What an image is by its first bytes, or null for anything else. */
export function imageKind(bytes: Uint8Array): ImageKind | null {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff)
    return 'jpeg';
  const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (bytes.length >= 8 && png.every((b, i) => bytes[i] === b)) return 'png';
  if (bytes.length >= 12) {
    const box = String.fromCharCode(...bytes.subarray(4, 8));
    const brand = String.fromCharCode(...bytes.subarray(8, 12));
    if (box === 'ftyp' && HEIF_BRANDS.has(brand)) return 'heic';
  }
  return null;
}

/**
 * The first image of a HEIC as RGBA pixels (libheif applies the file's rotation and mirroring,
 * so they come out upright). Its size is read from the header and checked before any pixel is
 * decoded: the wasm decoder would otherwise allocate width × height × 4 bytes for a bomb.
 */
async function decodeHeicPixels(bytes: Uint8Array, maxPixels: number) {
  const images = await decodeHeic.all({ buffer: bytes });
  try {
    const first = images[0];
    if (!first) throw new Error('no image in the HEIF file');
    if (first.width * first.height > maxPixels)
      throw new Error(`${first.width} × ${first.height} exceeds the pixel limit`);
    return await first.decode();
  } finally {
    images.dispose();
  }
}

const unreadable = (cause: unknown) =>
  new AppError('ATTACHMENT_UNREADABLE', { cause, detail: 'image could not be decoded' });

/** Checks, upright-turns, resizes and re-encodes an image; refuses anything else with a 4xx. */
export async function processAttachment(
  bytes: Uint8Array,
  limits: { maxPixels?: number } = {},
): Promise<ProcessedImage> {
  if (bytes.length > SUPPORT_ATTACHMENT_MAX_BYTES)
    throw new AppError('ATTACHMENT_TOO_LARGE', { detail: `${bytes.length} bytes` });
  const kind = imageKind(bytes);
  if (!kind) throw new AppError('ATTACHMENT_TYPE_NOT_ALLOWED', { detail: 'not JPEG, PNG or HEIC' });
  const limitInputPixels = limits.maxPixels ?? IMAGE_MAX_PIXELS;
  let input: sharp.Sharp;
  try {
    if (kind === 'heic') {
      const decoded = await decodeHeicPixels(bytes, limitInputPixels);
      input = sharp(
        Buffer.from(decoded.data.buffer, decoded.data.byteOffset, decoded.data.length),
        {
          raw: { width: decoded.width, height: decoded.height, channels: 4 },
          limitInputPixels,
        },
      );
    } else {
      input = sharp(bytes, { limitInputPixels, failOn: 'error' });
    }
    const pipeline = input
      .rotate()
      .resize({
        width: IMAGE_MAX_SIDE,
        height: IMAGE_MAX_SIDE,
        fit: 'inside',
        withoutEnlargement: true,
      })
      .toColourspace('srgb');
    const { data, info } = await (
      kind === 'png'
        ? pipeline.png({ compressionLevel: 9 })
        : pipeline.flatten({ background: '#ffffff' }).jpeg({ quality: 82, mozjpeg: true })
    ).toBuffer({ resolveWithObject: true });
    return {
      bytes: new Uint8Array(data),
      contentType: kind === 'png' ? 'image/png' : 'image/jpeg',
      width: info.width,
      height: info.height,
    };
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw unreadable(error);
  }
}
