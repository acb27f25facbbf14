/**
 * Reads a node's `/metrics` in the text exposition format: each sample by its name and its
 * labels, so a test can ask for one series (`valueOf`) or every series of a family.
 */
import assert from "node:assert/strict";

/** One sample line: its metric name, its labels and its value. */
export interface Sample {
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

/** Every sample of `text`; comment lines are skipped. */
export function samplesOf(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split("\n")) {
    if (line === "" || line.startsWith("#")) continue;
    const match = SAMPLE.exec(line);
    assert.ok(match !== null, `not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const label of (match[2] ?? "").matchAll(LABEL)) {
      labels[label[1] as string] = (label[2] as string).replace(/\\(.)/g, "$1");
    }
    samples.push({ name: match[1] as string, labels, value: Number(match[3]) });
  }
  return samples;
}

/** A scrape of one node, read into samples. */
export class Scrape {
  readonly samples: readonly Sample[];

  constructor(readonly text: string) {
    this.samples = samplesOf(text);
  }

  static async of(httpPort: number): Promise<Scrape> {
    const response = await fetch(`http://127.0.0.1:${httpPort}/metrics`);
    assert.equal(response.status, 200);
    return new Scrape(await response.text());
  }

  /** The value of the series `name` with exactly `labels`, or undefined. */
  valueOf(name: string, labels: Readonly<Record<string, string>> = {}): number | undefined {
    const wanted = Object.entries(labels).sort();
    const sample = this.samples.find(
      (candidate) =>
        candidate.name === name &&
        JSON.stringify(Object.entries(candidate.labels).sort()) === JSON.stringify(wanted),
    );
    return sample?.value;
  }

  /** Every series of `name` whose labels include `labels`. */
  seriesOf(name: string, labels: Readonly<Record<string, string>> = {}): Sample[] {
    return this.samples.filter(
      (sample) =>
        sample.name === name &&
        Object.entries(labels).every(([key, value]) => sample.labels[key] === value),
    );
  }

  /** The sum of every series of `name` whose labels include `labels` (0 when there is none). */
  sumOf(name: string, labels: Readonly<Record<string, string>> = {}): number {
    return this.seriesOf(name, labels).reduce((sum, sample) => sum + sample.value, 0);
  }

  /** The TYPE line's type of `name`, or undefined. */
  typeOf(name: string): string | undefined {
    const line = this.text.split("\n").find((each) => each.startsWith(`# TYPE ${name} `));
    return line?.slice(`# TYPE ${name} `.length);
  }
}
