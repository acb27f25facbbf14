import { assert } from "../../src/common/index.js";
import type { SeededRandom } from "../random.js";

/** The operations of the FileSystem and FileHandle ports, as fault rules name them. */
export type FileOperation =
  | "open"
  | "rename"
  | "readdir"
  | "unlink"
  | "mkdir"
  | "rmdir"
  | "stat"
  | "syncDirectory"
  | "volumeSpace"
  | "append"
  | "write"
  | "read"
  | "size"
  | "sync"
  | "datasync"
  | "truncate"
  | "close";

/** A fault to inject: matching calls fail with `code` and have no effect. */
export interface FaultRule {
  /** The code the call fails with. */
  readonly code: "EIO" | "ENOSPC" | "EMFILE" | "ENFILE";
  /** Which operations fail (default: every one). */
  readonly operations?: readonly FileOperation[];
  /** Which paths: a prefix ("/data/orders-0" matches everything below it) or a predicate. */
  readonly path?: string | ((path: string) => boolean);
  /** How many calls fail before the rule expires (default: no limit). */
  readonly times?: number;
  /** The chance that a matching call fails (default 1). */
  readonly probability?: number;
}

/** A rule in force; `remove` ends it early. */
export interface InjectedFault {
  remove(): void;
}

interface ActiveRule {
  readonly rule: FaultRule;
  remaining: number;
}

function matchesPath(rule: FaultRule, path: string): boolean {
  const filter = rule.path;
  if (filter === undefined) return true;
  if (typeof filter === "function") return filter(path);
  return path === filter || path.startsWith(filter.endsWith("/") ? filter : `${filter}/`);
}

/** The fault rules of one simulated disk. */
export class FaultSet {
  private readonly rules: ActiveRule[] = [];

  constructor(private readonly random: SeededRandom) {}

  add(rule: FaultRule): InjectedFault {
    const times = rule.times ?? Number.POSITIVE_INFINITY;
    assert(times > 0, "a fault rule fails at least one call");
    const active: ActiveRule = { rule, remaining: times };
    this.rules.push(active);
    return {
      remove: () => {
        const index = this.rules.indexOf(active);
        if (index >= 0) this.rules.splice(index, 1);
      },
    };
  }

  clear(): void {
    this.rules.length = 0;
  }

  /** The code the call fails with, or undefined when no rule fires. Consumes one use. */
  check(operation: FileOperation, path: string): FaultRule["code"] | undefined {
    for (const active of this.rules) {
      const rule = active.rule;
      if (rule.operations !== undefined && !rule.operations.includes(operation)) continue;
      if (!matchesPath(rule, path)) continue;
      if (!this.random.chance(rule.probability ?? 1)) continue;
      active.remaining -= 1;
      if (active.remaining <= 0) this.rules.splice(this.rules.indexOf(active), 1);
      return rule.code;
    }
    return undefined;
  }
}
