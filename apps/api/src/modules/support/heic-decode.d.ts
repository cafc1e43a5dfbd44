/** heic-decode 2 (ISC; libheif-js, LGPL-3.0, as WebAssembly): HEIC/HEIF to RGBA pixels. */
declare module 'heic-decode' {
  interface DecodedImage {
    width: number;
    height: number;
    data: Uint8ClampedArray;
  }
  function decode(input: { buffer: Uint8Array | ArrayBuffer }): Promise<DecodedImage>;
  export default decode;
}
