/**
 * How the message browser shows a key, a value or a header's value: as text (UTF-8), as JSON
 * (parsed and indented) or as hex. Bytes that are not what was asked for fall back, and say so:
 * bytes that are not UTF-8 are shown as hex, text that is not JSON as text. At most
 * `shownBytesMax` bytes of a field are rendered; the field's size is always given.
 */

export type ValueFormat = "text" | "json" | "hex";

export const VALUE_FORMATS: readonly ValueFormat[] = ["text", "json", "hex"];

/** A field as the page shows it; null for a null key, value or header value. */
export interface RenderedBytes {
  /** The format the text is in: the asked one, or the one fallen back to. */
  readonly format: ValueFormat;
  readonly text: string;
  /** The field's whole size in bytes. */
  readonly sizeBytes: number;
  /** Whether only the first `shownBytesMax` bytes are rendered. */
  readonly isTruncated: boolean;
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

/** The bytes as lower-case hex pairs, a space between bytes. */
export function hexOf(bytes: Uint8Array): string {
  const pairs: string[] = [];
  for (const byte of bytes) pairs.push(byte.toString(16).padStart(2, "0"));
  return pairs.join(" ");
}

/** The bytes as UTF-8 text, or undefined when they are not valid UTF-8. */
export function textOf(bytes: Uint8Array): string | undefined {
  try {
    return utf8.decode(bytes);
  } catch (cause) {
    if (cause instanceof TypeError) return undefined;
    throw cause;
  }
}

/** `bytes` in `format`, falling back as the module says; null stays null. */
export function renderBytes(
  bytes: Uint8Array | null,
  options: { readonly format: ValueFormat; readonly shownBytesMax: number },
): RenderedBytes | null {
  if (bytes === null) return null;
  const isTruncated = bytes.length > options.shownBytesMax;
  const shown = isTruncated ? bytes.subarray(0, options.shownBytesMax) : bytes;
  const rendered = (format: ValueFormat, text: string): RenderedBytes => ({
    format,
    text,
    sizeBytes: bytes.length,
    isTruncated,
  });
  if (options.format === "hex") return rendered("hex", hexOf(shown));
  // A cut may fall inside a UTF-8 sequence; the text is then shown as hex, which is honest.
  const text = textOf(shown);
  if (text === undefined) return rendered("hex", hexOf(shown));
  if (options.format === "text" || isTruncated) return rendered("text", text);
  const json = jsonOf(text);
  return json === undefined ? rendered("text", text) : rendered("json", json);
}

/** The text indented as JSON, or undefined when it is not JSON. */
function jsonOf(text: string): string | undefined {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch (cause) {
    if (cause instanceof SyntaxError) return undefined;
    throw cause;
  }
}
