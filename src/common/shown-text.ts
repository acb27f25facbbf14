/**
 * Client text quoted in an error message, cut to `maxChars`: a request may carry strings of
 * 32,767 bytes, and a message that repeats one in full would pass the 32,767-byte limit of the
 * response's errorMessage field, so the response could not be sent at all.
 */
export function shownText(text: string, maxChars = 1000): string {
  if (text.length <= maxChars) return text;
  return `${text.slice(0, maxChars)}... (${text.length} characters)`;
}
