/**
 * Group commit for the metadata log: an append asks for a flush; while one fsync runs, later
 * requests wait and share the next one, so many appends cost one fsync. After each fsync the
 * owner is told, and reads the durable end itself.
 */

/** Runs fsyncs one at a time, each covering every request made before it started. */
export class GroupFlush {
  private running: Promise<void> | undefined;
  private isWanted = false;

  constructor(
    private readonly options: {
      /** Makes the log durable up to its end. */
      readonly flush: () => Promise<void>;
      /** Told after each fsync. */
      readonly flushed: () => void;
      /** Told when an fsync fails; no more fsyncs run after it. */
      readonly failed: (error: unknown) => void;
      /** False once the owner stopped; no fsync starts after that. */
      readonly isActive: () => boolean;
    },
  ) {}

  /** Asks for an fsync of everything written so far. */
  request(): void {
    this.isWanted = true;
    this.running ??= this.run();
  }

  /** Resolves when no fsync runs. */
  async idle(): Promise<void> {
    await this.running;
  }

  private async run(): Promise<void> {
    try {
      while (this.isWanted && this.options.isActive()) {
        this.isWanted = false;
        await this.options.flush();
        this.options.flushed();
      }
    } catch (error) {
      this.options.failed(error);
    } finally {
      this.running = undefined;
    }
  }
}
