/**
 * Server-Sent Events framing (the WHATWG HTML standard's event stream format): an event is an
 * optional `id:` line, an `event:` line and one `data:` line per line of its data, ended by a
 * blank line. The data may hold any text; it is split at CR, LF and CRLF, each of which the
 * browser's EventSource joins back as LF. An event name or id holding a line break could end
 * the event early, so it is refused.
 */
import { assert } from "../common/index.js";

export interface ServerSentEvent {
  /** The event type EventSource listeners subscribe to; no line breaks. */
  readonly event: string;
  readonly data: string;
  /** The event's id (the browser's Last-Event-ID); no line breaks. */
  readonly id?: string;
}

const LINE_BREAK = /\r\n|\r|\n/;

/** The text of `event` on the stream. */
export function sseFrame(event: ServerSentEvent): string {
  assert(!LINE_BREAK.test(event.event), "an event name has no line break");
  assert(event.event.length > 0, "an event has a name");
  const lines: string[] = [];
  if (event.id !== undefined) {
    assert(!LINE_BREAK.test(event.id), "an event id has no line break");
    assert(!event.id.includes("\u0000"), "an event id has no NUL");
    lines.push(`id: ${event.id}`);
  }
  lines.push(`event: ${event.event}`);
  for (const line of event.data.split(LINE_BREAK)) lines.push(`data: ${line}`);
  return `${lines.join("\n")}\n\n`;
}

/** `value` as the JSON data of an event named `event`. */
export function sseJson(event: string, value: unknown): string {
  return sseFrame({ event, data: JSON.stringify(value) });
}
