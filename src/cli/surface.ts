// `mcp-inspect snapshot` and `mcp-inspect diff`: a server's surface as stable JSON to keep in a
// repository, and what changed between two surfaces, each change marked breaking or compatible.

import {
  diffSurfaces,
  parseRecording,
  parseSurface,
  snapshotSurface,
  type Surface,
  type SurfaceChange,
  surfaceFromRecording,
  surfaceJson,
} from "../testing/testing.ts";
import { type CliArgs, UsageError } from "./args.ts";
import type { Command, Output } from "./command.ts";

/** A surface from a snapshot file, with a usage error naming the file when it is not one. */
async function readSurface(file: string): Promise<Surface> {
  let text: string;
  try {
    text = await Deno.readTextFile(file);
  } catch (error) {
    throw new UsageError(`Cannot read "${file}": ${(error as Error).message}`);
  }
  // A recording (JSON Lines under its header) shows a surface too.
  if (text.trimStart().startsWith('{"format":"mcp-inspect-recording"')) {
    try {
      return surfaceFromRecording(parseRecording(text, `"${file}"`));
    } catch (error) {
      const message = (error as Error).message;
      throw new UsageError(message.startsWith(`"${file}"`) ? message : `"${file}": ${message}`);
    }
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`"${file}" is not JSON: ${(error as Error).message}`);
  }
  try {
    return parseSurface(value, `"${file}"`);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

export const snapshot: Command = {
  words: ["snapshot"],
  async run(context) {
    const surface = await snapshotSurface(context.client, {
      signal: context.signal,
      timeoutMs: context.args.timeoutMs,
    });
    const json = surfaceJson(surface);
    const file = context.args.outDir;
    if (file === undefined) {
      context.out.stdout(json.trimEnd());
      return 0;
    }
    await Deno.writeTextFile(file, json);
    context.out.stderr(
      `${file}: ${surface.tools.length} tool(s), ${surface.resources.length} resource(s), ` +
        `${surface.resourceTemplates.length} template(s), ${surface.prompts.length} prompt(s)`,
    );
    return 0;
  },
};

function failOn(args: CliArgs): "any" | "breaking" {
  const value = args.failOn ?? "any";
  if (value !== "any" && value !== "breaking") {
    throw new UsageError(`Invalid --fail-on "${value}": expected breaking or any`);
  }
  return value;
}

/** Prints the report and returns the exit code. */
function report(changes: SurfaceChange[], args: CliArgs, out: Output): number {
  const mode = failOn(args);
  const breaking = changes.filter((c) => c.severity === "breaking").length;
  const failed = mode === "breaking" ? breaking > 0 : changes.length > 0;
  if (args.json) {
    out.stdout(JSON.stringify(
      { equal: changes.length === 0, breaking, compatible: changes.length - breaking, changes },
      null,
      2,
    ));
    return failed ? 1 : 0;
  }
  if (changes.length === 0) {
    out.stdout("No differences.");
    return 0;
  }
  const { red, dim } = out.style;
  for (const c of changes) {
    const mark = c.severity === "breaking" ? red("breaking  ") : dim("compatible");
    out.stdout(`${mark} ${c.kind} ${c.name}: ${c.detail}`);
  }
  out.stdout(`${breaking} breaking, ${changes.length - breaking} compatible change(s)`);
  return failed ? 1 : 0;
}

export const diff: Command = {
  words: ["diff"],
  async withoutServer(args, out) {
    failOn(args);
    const files = args.words.slice(1);
    if (files.length === 0 || files.length > 2) {
      throw new UsageError("Usage: diff <old> [<new> | -- <server command> | --url <URL>]");
    }
    if (files.length === 2) {
      if (args.server.length > 0 || args.url !== undefined) {
        throw new UsageError("diff compares two files, or one file with a server: not both");
      }
      const [before, after] = await Promise.all(files.map(readSurface));
      return report(diffSurfaces(before!, after!), args, out);
    }
    return undefined; // one file: compare it with the live server
  },
  async run(context) {
    const before = await readSurface(context.positionals[0]!);
    const after = await snapshotSurface(context.client, { signal: context.signal });
    return report(diffSurfaces(before, after), context.args, context.out);
  },
};
