/** heic-decode 2 (ISC; libheif-js, LGPL-3.0, as WebAssembly): HEIC/HEIF to RGBA pixels. */
declare module 'heic-decode' {
  interface DecodedImage {
    width: number;
    height: number;
    data: Uint8ClampedArray;
  }
  /** A top-level image of the file: its size is known from the header, its pixels on `decode`. */
  interface HeifImage {
    width: number;
    height: number;
    decode(): Promise<DecodedImage>;
  }
  interface Decode {
    /** Decodes the file's first image. */
    (input: { buffer: Uint8Array | ArrayBuffer }): Promise<DecodedImage>;
    /** Parses the file without decoding; `dispose` frees the decoder once done. */
    all(input: { buffer: Uint8Array | ArrayBuffer }): Promise<HeifImage[] & { dispose(): void }>;
  }
  const decode: Decode;
  export default decode;
}
