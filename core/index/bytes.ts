/**
 * Numbers read straight from a file's bytes, for the index's binary files.
 *
 * @module
 */

/** A typed array type that can view a buffer: `Int32Array`, `Uint16Array`, … */
export interface TypedArrayType<T> {
  new (buffer: ArrayBuffer, byteOffset: number, length: number): T;
  readonly BYTES_PER_ELEMENT: number;
}

/**
 * `bytes` seen as numbers of `type`, in the machine's byte order: a view, copied only when the
 * bytes do not start on a boundary of the type's size. Trailing bytes that do not make a whole
 * number are left out.
 */
export function viewAs<T>(bytes: Uint8Array, type: TypedArrayType<T>): T {
  const size = type.BYTES_PER_ELEMENT;
  const aligned = bytes.byteOffset % size === 0 ? bytes : bytes.slice();
  return new type(
    aligned.buffer as ArrayBuffer,
    aligned.byteOffset,
    Math.floor(aligned.byteLength / size),
  );
}
