/**
 * Refresh, the progress display of the fetch phase: a cli-progress bar on a terminal, else one
 * plain line per model (its failure reason, text from the service, with control characters shown
 * as `<U+XXXX>`).
 */
import cliProgress from 'cli-progress';
import { showControls } from '../escape.ts';

/** How progress is shown: a cli-progress bar, one plain line per model, or nothing. `auto`: a bar when the stream is a TTY, else lines. */
export type ProgressMode = 'auto' | 'bar' | 'lines' | 'none';

/** Shows progress of the fetch phase; see `ProgressMode`. */
export class Progress {
  private bar: cliProgress.SingleBar | undefined;
  private done = 0;
  private failed = 0;
  constructor(
    private readonly mode: Exclude<ProgressMode, 'auto'>,
    private readonly total: number,
    private readonly stream: NodeJS.WritableStream,
    /** What each line and the bar start with: the command that fetches (`refresh`, `add`). */
    private readonly label = 'refresh',
  ) {
    if (mode === 'bar') {
      this.bar = new cliProgress.SingleBar(
        {
          stream,
          format: `${label} [{bar}] {value}/{total} models | {failed} failed | {duration_formatted}`,
          hideCursor: true,
          clearOnComplete: false,
        },
        cliProgress.Presets.shades_classic,
      );
      this.bar.start(total, 0, { failed: 0 });
    }
  }
  tick(id: string, reason?: string): void {
    this.done++;
    if (reason !== undefined) this.failed++;
    if (this.bar) this.bar.update(this.done, { failed: this.failed });
    else if (this.mode === 'lines')
      this.stream.write(
        showControls(
          `${this.label}: [${this.done}/${this.total}] ${reason === undefined ? `ok      ${id}` : `FAILED  ${id}: ${reason}`}\n`,
        ),
      );
  }
  stop(): void {
    this.bar?.stop();
  }
}
