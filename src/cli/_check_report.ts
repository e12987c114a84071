// The findings of `mcp-inspect check`, their latencies, and how they are printed.

import type { Context } from "./command.ts";

/** One thing `check` found. */
export interface Finding {
  level: "ok" | "warning" | "problem";
  check: string;
  detail: string;
}

/** What `check` has found so far, and the time each request took. */
export class CheckReport {
  readonly findings: Finding[] = [];
  readonly latencies: Record<string, number> = {};

  /** Records a finding. */
  add(level: Finding["level"], check: string, detail: string): void {
    this.findings.push({ level, check, detail });
  }

  /** Runs a request, recording its latency; a failure is a problem and gives `undefined`. */
  async timed<T>(name: string, run: () => Promise<T>): Promise<T | undefined> {
    const started = performance.now();
    try {
      return await run();
    } catch (error) {
      this.add("problem", name, (error as Error).message);
      return undefined;
    } finally {
      this.latencies[name] = Math.round((performance.now() - started) * 10) / 10;
    }
  }

  /** Prints the report (JSON or lines) and returns the exit code: 1 when a problem was found. */
  print(context: Context): number {
    const { client, out } = context;
    const problems = this.findings.filter((f) => f.level === "problem").length;
    const warnings = this.findings.filter((f) => f.level === "warning").length;
    if (context.args.json) {
      out.stdout(JSON.stringify(
        {
          server: client.serverInfo,
          protocolVersion: client.protocolVersion,
          era: client.era,
          findings: this.findings,
          latenciesMs: this.latencies,
          problems,
          warnings,
        },
        null,
        2,
      ));
    } else {
      const { green, red, dim } = out.style;
      const mark = { ok: green("✓"), warning: "!", problem: red("✗") };
      for (const f of this.findings) out.stdout(`${mark[f.level]} ${f.check}: ${f.detail}`);
      const latency = Object.entries(this.latencies).map(([k, v]) => `${k} ${v}`).join(", ");
      out.stdout(dim(`latency (ms): ${latency}`));
      out.stdout(`${problems} problem(s), ${warnings} warning(s)`);
    }
    return problems > 0 ? 1 : 0;
  }
}
