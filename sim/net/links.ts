import { assert } from "../../src/common/index.js";
import type { SeededRandom } from "../random.js";

/** How one direction of the network between two nodes behaves. */
export interface LinkSettings {
  /** The shortest and longest one-way delay (drawn uniformly per chunk or message). */
  readonly delayMinMs: number;
  readonly delayMaxMs: number;
  /** Messages: the chance a message is lost. Streams: the chance a write resets the connection. */
  readonly dropProbability: number;
  /** Messages only: the chance a message is delivered twice. */
  readonly duplicateProbability: number;
  /** Messages only: the chance a message leaves FIFO order, delayed up to `reorderWindowMs`. */
  readonly reorderProbability: number;
  readonly reorderWindowMs: number;
  /** Streams only: the chance a written chunk arrives split in several (as TCP may do). */
  readonly splitProbability: number;
}

/** A reliable, in-order link with a small delay. */
export const defaultLinkSettings: LinkSettings = {
  delayMinMs: 1,
  delayMaxMs: 5,
  dropProbability: 0,
  duplicateProbability: 0,
  reorderProbability: 0,
  reorderWindowMs: 20,
  splitProbability: 0,
};

function checkSettings(settings: LinkSettings): void {
  assert(Number.isInteger(settings.delayMinMs), "delayMinMs is an integer");
  assert(Number.isInteger(settings.delayMaxMs), "delayMaxMs is an integer");
  assert(settings.delayMinMs >= 0, "delayMinMs is >= 0");
  assert(settings.delayMinMs <= settings.delayMaxMs, "delayMinMs <= delayMaxMs");
  assert(Number.isInteger(settings.reorderWindowMs), "reorderWindowMs is an integer");
  assert(settings.reorderWindowMs >= 0, "reorderWindowMs is >= 0");
}

const linkKey = (from: string, to: string): string => `${from}\u0000${to}`;

/** The settings and cuts of every ordered pair of nodes. */
export class LinkTable {
  private defaults: LinkSettings = defaultLinkSettings;
  private readonly overrides = new Map<string, Partial<LinkSettings>>();
  private readonly cuts = new Set<string>();

  constructor(private readonly random: SeededRandom) {}

  /** Changes the settings of every link that has no override for them. */
  configureDefaults(settings: Partial<LinkSettings>): void {
    const merged = { ...this.defaults, ...settings };
    checkSettings(merged);
    this.defaults = merged;
  }

  /** Changes the settings of the link `from` → `to` only. */
  configure(from: string, to: string, settings: Partial<LinkSettings>): void {
    const override = { ...this.overrides.get(linkKey(from, to)), ...settings };
    checkSettings({ ...this.defaults, ...override });
    this.overrides.set(linkKey(from, to), override);
  }

  settings(from: string, to: string): LinkSettings {
    return { ...this.defaults, ...this.overrides.get(linkKey(from, to)) };
  }

  /** Cuts `from` → `to`: nothing sent that way arrives until healed. */
  cut(from: string, to: string): void {
    this.cuts.add(linkKey(from, to));
  }

  heal(from: string, to: string): void {
    this.cuts.delete(linkKey(from, to));
  }

  healAll(): void {
    this.cuts.clear();
  }

  isCut(from: string, to: string): boolean {
    return this.cuts.has(linkKey(from, to));
  }

  /** A one-way delay for `from` → `to`. */
  drawDelayMs(from: string, to: string): number {
    const settings = this.settings(from, to);
    return this.random.between(settings.delayMinMs, settings.delayMaxMs);
  }

  /** Rolls the dice of one of the link's fault probabilities. */
  roll(from: string, to: string, fault: "drop" | "duplicate" | "reorder" | "split"): boolean {
    const settings = this.settings(from, to);
    const probability = {
      drop: settings.dropProbability,
      duplicate: settings.duplicateProbability,
      reorder: settings.reorderProbability,
      split: settings.splitProbability,
    }[fault];
    return this.random.chance(probability);
  }

  /** An integer in [minimum, maximum] from the network's random stream. */
  between(minimum: number, maximum: number): number {
    return this.random.between(minimum, maximum);
  }
}
