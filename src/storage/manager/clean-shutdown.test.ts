import { test } from "node:test";
import assert from "node:assert/strict";
import {
  formatCleanShutdown,
  NO_BROKER_EPOCH,
  parseCleanShutdown,
  previousBrokerEpoch,
} from "./clean-shutdown.js";

test("the marker is written as Kafka's map of strings", () => {
  assert.equal(formatCleanShutdown(42), '{"broker_epoch":"42","version":"0"}');
  assert.equal(formatCleanShutdown(-1), '{"broker_epoch":"-1","version":"0"}');
});

test("the marker's epoch reads back, and an unreadable marker has no epoch", () => {
  assert.equal(parseCleanShutdown(formatCleanShutdown(42)), 42);
  assert.equal(parseCleanShutdown('{"version":"0"}'), NO_BROKER_EPOCH);
  assert.equal(parseCleanShutdown('{"version":0,"broker_epoch":7}'), 7);
  for (const text of ["", "not json", "[]", '{"broker_epoch":"x"}', "null"]) {
    assert.equal(parseCleanShutdown(text), undefined, text);
  }
});

test("the previous broker epoch needs the same readable epoch in every dir", () => {
  assert.equal(previousBrokerEpoch([5, 5, 5]), 5);
  assert.equal(previousBrokerEpoch([5, 6]), undefined);
  assert.equal(previousBrokerEpoch([5, undefined]), undefined);
  assert.equal(previousBrokerEpoch([-1, 5]), 5);
});
