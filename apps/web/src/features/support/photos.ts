import {
  SUPPORT_ATTACHMENT_MAX_BYTES,
  SUPPORT_ATTACHMENT_TYPES,
} from '@alda/contract/schemas/support';

export type PhotoType = (typeof SUPPORT_ATTACHMENT_TYPES)[number];

/** What the file picker offers: the types a phone's photo or screenshot comes in. */
export const PHOTO_ACCEPT = SUPPORT_ATTACHMENT_TYPES.join(',');

const BY_EXTENSION: Record<string, PhotoType> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  heic: 'image/heic',
  heif: 'image/heif',
};

/**
 * The type to upload a file as: its own when it is one we take, else by its name — some browsers
 * give a HEIC photo no type at all. Null for anything else. The server reads the type from the
 * bytes in any case; this only spares an upload that would be refused.
 */
export function photoTypeOf(file: Pick<File, 'type' | 'name'>): PhotoType | null {
  const own = SUPPORT_ATTACHMENT_TYPES.find((type) => type === file.type);
  if (own) return own;
  if (file.type && !file.type.startsWith('image/')) return null;
  const extension = file.name.split('.').pop()?.toLowerCase() ?? '';
  return BY_EXTENSION[extension] ?? null;
}

/** Why a chosen file cannot be sent (issue 46: JPEG, PNG or HEIC, ≤ 5 MB), or null. */
export function photoProblem(file: Pick<File, 'type' | 'name' | 'size'>): 'type' | 'size' | null {
  if (photoTypeOf(file) === null) return 'type';
  if (file.size > SUPPORT_ATTACHMENT_MAX_BYTES) return 'size';
  return null;
}

/** The body to upload: the file itself, with the type we worked out when it had none. */
export function uploadBody(file: File): Blob {
  const type = photoTypeOf(file);
  return type === null || type === file.type ? file : new Blob([file], { type });
}
