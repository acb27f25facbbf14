/**
 * Where a new partition's log goes among the log dirs (JBOD). Kafka's rule: the online dir that
 * holds the fewest logs (current and future ones), ties going to the dir listed first in
 * `log.dirs`. Pure.
 */

/** One log dir as placement sees it. */
export interface PlacementCandidate {
  readonly dir: string;
  readonly isOnline: boolean;
  /** Current and future logs the dir holds. */
  readonly logCount: number;
}

/** The dir for a new log, or undefined when none is online; candidates come in `log.dirs` order. */
export function chooseLogDir(candidates: readonly PlacementCandidate[]): string | undefined {
  let chosen: PlacementCandidate | undefined;
  for (const candidate of candidates) {
    if (!candidate.isOnline) continue;
    // Strictly fewer: an equal count keeps the earlier dir, as Kafka's stable sort does.
    if (chosen === undefined || candidate.logCount < chosen.logCount) chosen = candidate;
  }
  return chosen?.dir;
}
