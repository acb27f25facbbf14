import { test } from "node:test";
import assert from "node:assert/strict";
import { AssertionError } from "../common/index.js";
import { sseFrame, sseJson } from "./sse.js";

/** What a browser's EventSource makes of one event's text (the standard's parsing, in short). */
function parsed(frame: string): { event: string; data: string; id: string | undefined } {
  assert.ok(frame.endsWith("\n\n"), "an event ends with a blank line");
  const lines = frame.slice(0, -2).split("\n");
  const data: string[] = [];
  let event = "message";
  let id: string | undefined;
  for (const line of lines) {
    const colon = line.indexOf(":");
    const field = line.slice(0, colon);
    const value = line.slice(colon + 1).replace(/^ /, "");
    if (field === "data") data.push(value);
    else if (field === "event") event = value;
    else if (field === "id") id = value;
    else assert.fail(`unexpected line ${line}`);
  }
  return { event, data: data.join("\n"), id };
}

test("an event is its name and one data line per line of its data, then a blank line", () => {
  assert.equal(sseFrame({ event: "cluster", data: "{}" }), "event: cluster\ndata: {}\n\n");
  assert.equal(
    sseFrame({ event: "metadata", data: "a\nb", id: "7" }),
    "id: 7\nevent: metadata\ndata: a\ndata: b\n\n",
  );
});

test("data with CR, LF, CRLF and blank lines comes back whole, its breaks as LF", () => {
  const data = "first\r\nsecond\rthird\n\nfifth: with a colon\n";
  const frame = sseFrame({ event: "x", data });
  // No raw CR may reach the stream: it would end a line in the browser's parser too.
  assert.ok(!frame.includes("\r"));
  assert.deepEqual(parsed(frame), {
    event: "x",
    data: "first\nsecond\nthird\n\nfifth: with a colon\n",
    id: undefined,
  });
});

test("empty data is one empty data line, which EventSource still dispatches", () => {
  assert.equal(sseFrame({ event: "ping", data: "" }), "event: ping\ndata: \n\n");
});

test("JSON data is one line whatever the strings in it hold", () => {
  const value = { name: "two\nlines", html: "<b>x</b>" };
  const frame = sseJson("cluster", value);
  assert.equal(frame.split("\n").length, 4);
  assert.deepEqual(JSON.parse(parsed(frame).data), value);
});

test("an event name or id with a line break is refused: it would end the event early", () => {
  assert.throws(() => sseFrame({ event: "a\nb", data: "" }), AssertionError);
  assert.throws(() => sseFrame({ event: "a", data: "", id: "1\r2" }), AssertionError);
  assert.throws(() => sseFrame({ event: "", data: "" }), AssertionError);
});
