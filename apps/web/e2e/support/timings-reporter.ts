import type { FullResult, Reporter, TestCase, TestResult } from '@playwright/test/reporter';

/**
 * Prints every journey's time at the end of the e2e phase, slowest first, so that CI's log says
 * where the suite's minutes go (docs/performance.md names the slowest journeys and what they
 * wait for).
 */
export default class TimingsReporter implements Reporter {
  private readonly times: { title: string; ms: number; status: string }[] = [];

  onTestEnd(test: TestCase, result: TestResult): void {
    const file = test.location.file.split('/').pop() ?? '';
    this.times.push({
      title: `${file} › ${test.title}`,
      ms: result.duration,
      status: result.status,
    });
  }

  onEnd(result: FullResult): void {
    const total = this.times.reduce((sum, t) => sum + t.ms, 0);
    const lines = [...this.times]
      .sort((a, b) => b.ms - a.ms)
      .map((t) => `${(t.ms / 1000).toFixed(1).padStart(7)} s  ${t.status.padEnd(7)} ${t.title}`);
    console.log(
      `\n== e2e journeys by time (${this.times.length}, ${(total / 1000).toFixed(0)} s in all, ${result.status})\n${lines.join('\n')}\n`,
    );
  }

  printsToStdio(): boolean {
    return false;
  }
}
