/**
 * The activation of a newly elected controller: it proposes the claim of its epoch (and, on an
 * empty log, the bootstrap records) and becomes active once that batch commits, when its
 * in-memory image is the committed one. A refused activation batch is proposed again by the
 * ticks (`retryActivation`).
 */
import { encodeMetadataRecord } from "../../protocol/index.js";
import { heartbeatsAfterActivation } from "../cluster/index.js";
import { activationRecords, stepAfter } from "./activation.js";
import type { ActivationStep } from "./activation.js";
import type { ControllerCore } from "./controller-core.js";
import { propose } from "./operation-running.driver.js";

/** What activation does besides changing the core. */
export interface ActivationHooks {
  /** Runs proposal work in the background (the controller's `track`). */
  track(work: Promise<void>): void;
  /** Called once the controller became active. */
  activated(): void;
}

/** Starts activating in `epoch`, from the committed image. */
export function beginActivation(core: ControllerCore, hooks: ActivationHooks, epoch: number): void {
  core.generation += 1;
  core.latest = core.loader.image;
  core.options.logger.info("elected: activating the controller", { epoch });
  proposeActivation(core, hooks, epoch, "claim");
}

/** Proposes the batch of an activation step; its acceptance sets the offset to wait for. */
export function proposeActivation(
  core: ControllerCore,
  hooks: ActivationHooks,
  epoch: number,
  step: ActivationStep,
): void {
  core.state = { kind: "activating", epoch, step, awaitedOffset: undefined };
  const generation = core.generation;
  const records = activationRecords(step, core.options.settings.bootstrap);
  const encoded = records.map((record) => encodeMetadataRecord(record));
  hooks.track(
    propose(core, encoded).then((proposed) => {
      if (generation !== core.generation) return;
      if (proposed.kind === "refused") {
        core.options.logger.warn("activation batch refused", { step, reason: proposed.reason });
        return;
      }
      core.nextWriteOffset = proposed.lastOffset + 1;
      core.state = { kind: "activating", epoch, step, awaitedOffset: proposed.lastOffset };
      maybeFinishActivation(core, hooks);
    }),
  );
}

/** Moves to the next step, or to active, once the awaited batch committed. */
export function maybeFinishActivation(core: ControllerCore, hooks: ActivationHooks): void {
  const state = core.state;
  if (state.kind !== "activating" || state.awaitedOffset === undefined) return;
  if (core.lastCommittedOffset < state.awaitedOffset) return;
  const next = stepAfter(state.step, core.loader.image);
  if (next === "bootstrap") {
    core.options.logger.info("the metadata log is empty: writing the bootstrap records");
    proposeActivation(core, hooks, state.epoch, next);
    return;
  }
  core.state = { kind: "active", epoch: state.epoch };
  core.latest = core.loader.image;
  core.heartbeats = heartbeatsAfterActivation(core.latest, core.options.clock.monotonicMs());
  core.metrics.setActive(true);
  core.options.logger.info("the controller is active", { epoch: state.epoch });
  hooks.activated();
}
