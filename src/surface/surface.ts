/**
 * A server's surface: what it offers, normalised and sorted so that two snapshots of the same
 * server are byte for byte equal, and a diff between two surfaces that says what changed and
 * whether the change breaks callers.
 *
 * @module
 */

import canonicalize from "canonicalize";
import type { Client } from "../client/client.ts";
import type { RequestOptions } from "../session.ts";
import type { Implementation, ServerCapabilities } from "../types.ts";
import type { Prompt, Resource, ResourceTemplate, Tool } from "../feature_types.ts";
import { schemaChanges } from "./_schema_diff.ts";
import { isRequest, type RequestId } from "../jsonrpc.ts";
import type { Recording } from "../record/record.ts";
import { META } from "../protocol.ts";

/**
 * The version of the snapshot format, written in every snapshot.
 *
 * @example The format a snapshot declares
 * ```ts
 * import { SURFACE_FORMAT } from "@mcp-inspect/client/testing";
 * console.log(SURFACE_FORMAT); // 1
 * ```
 */
export const SURFACE_FORMAT = 1 as const;

/**
 * Everything a server offers, as {@link snapshotSurface} records it.
 *
 * @example Reading a committed snapshot
 * ```ts
 * import { Client } from "@mcp-inspect/client";
 * import { FakeServer, snapshotSurface, type Surface, surfaceJson } from "@mcp-inspect/client/testing";
 *
 * const fake = new FakeServer({ tools: [{ name: "echo" }] });
 * await using client = await Client.connect(fake.transport());
 * const file = await Deno.makeTempFile({ suffix: ".json" }); // mcp-surface.json, committed earlier
 * await Deno.writeTextFile(file, surfaceJson(await snapshotSurface(client)));
 * const surface: Surface = JSON.parse(await Deno.readTextFile(file));
 * console.log(surface.tools.map((t) => t.name)); // ["echo"]
 * await Deno.remove(file);
 * ```
 */
export interface Surface {
  /** {@link SURFACE_FORMAT}. */
  format: typeof SURFACE_FORMAT;
  /** The server's name and version. */
  serverInfo: Implementation;
  /** The negotiated revision. */
  protocolVersion: string;
  /** What it advertises. */
  capabilities: ServerCapabilities;
  /** Its guidance for the model, if any. */
  instructions?: string | undefined;
  /** Its tools, by name. */
  tools: Tool[];
  /** Its resources, by URI. */
  resources: Resource[];
  /** Its resource templates, by URI template. */
  resourceTemplates: ResourceTemplate[];
  /** Its prompts, by name. */
  prompts: Prompt[];
}

/** Without `_meta` anywhere: it carries request-specific, volatile data. */
function stable<T>(value: T): T {
  if (Array.isArray(value)) return value.map(stable) as T;
  if (typeof value !== "object" || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) {
    if (key === "_meta") continue;
    out[key] = stable((value as Record<string, unknown>)[key]);
  }
  return out as T;
}

function byKey<T>(items: readonly T[], key: (item: T) => string): T[] {
  return [...items].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}

/**
 * Records a connected server's surface: identity, revision, capabilities, instructions, and every
 * tool (with schemas and annotations), resource, resource template and prompt, each list sorted
 * and `_meta` left out, so that the JSON of two snapshots of an unchanged server is identical.
 *
 * @example Writing a snapshot to keep in a repository
 * ```ts
 * import { Client } from "@mcp-inspect/client";
 * import { FakeServer, snapshotSurface, surfaceJson } from "@mcp-inspect/client/testing";
 *
 * const fake = new FakeServer({ tools: [{ name: "echo" }] });
 * await using client = await Client.connect(fake.transport());
 * const file = await Deno.makeTempFile({ suffix: ".json" }); // mcp-surface.json, in a repository
 * const surface = await snapshotSurface(client);
 * await Deno.writeTextFile(file, surfaceJson(surface));
 * console.log(surface.tools); // [{ inputSchema: { type: "object" }, name: "echo" }]
 * await Deno.remove(file);
 * ```
 */
export async function snapshotSurface(
  client: Client,
  options: RequestOptions = {},
): Promise<Surface> {
  const caps = client.serverCapabilities;
  const [tools, resources, resourceTemplates, prompts] = await Promise.all([
    caps.tools ? client.listTools(options) : [],
    caps.resources ? client.listResources(options) : [],
    caps.resources ? client.listResourceTemplates(options) : [],
    caps.prompts ? client.listPrompts(options) : [],
  ]);
  return stable({
    format: SURFACE_FORMAT,
    serverInfo: client.serverInfo,
    protocolVersion: client.protocolVersion,
    capabilities: caps,
    ...(client.instructions === undefined ? {} : { instructions: client.instructions }),
    tools: byKey(tools, (t) => t.name),
    resources: byKey(resources, (r) => r.uri),
    resourceTemplates: byKey(resourceTemplates, (t) => t.uriTemplate),
    prompts: byKey(prompts, (p) => p.name),
  });
}

/**
 * A surface as stable JSON: keys sorted, two-space indented, a final newline.
 *
 * @example Writing a server's snapshot to a file
 * ```ts
 * import { Client } from "@mcp-inspect/client";
 * import { FakeServer, snapshotSurface, surfaceJson } from "@mcp-inspect/client/testing";
 *
 * await using client = await Client.connect(new FakeServer().transport());
 * const file = await Deno.makeTempFile({ suffix: ".json" }); // mcp-surface.json, in a repository
 * await Deno.writeTextFile(file, surfaceJson(await snapshotSurface(client)));
 * const written = JSON.parse(await Deno.readTextFile(file));
 * console.log(written.serverInfo); // { name: "fake", version: "1.0.0" }
 * await Deno.remove(file);
 * ```
 */
export function surfaceJson(surface: Surface): string {
  return `${JSON.stringify(stable(surface), null, 2)}\n`;
}

/**
 * Reads a surface from parsed JSON, checking its shape.
 *
 * @example Checking a snapshot read from a file
 * ```ts
 * import { parseSurface } from "@mcp-inspect/client/testing";
 * const file = await Deno.makeTempFile({ suffix: ".json" }); // mcp-surface.json
 * await Deno.writeTextFile(file, `{ "format": 1, "tools": [] }`); // an old or hand-edited file
 * try {
 *   parseSurface(JSON.parse(await Deno.readTextFile(file)), "mcp-surface.json");
 * } catch (error) {
 *   console.log((error as TypeError).message); // 'mcp-surface.json: "resources" is not a list'
 * }
 * await Deno.remove(file);
 * ```
 */
export function parseSurface(value: unknown, source = "the snapshot"): Surface {
  const s = value as Partial<Surface> | null;
  if (typeof s !== "object" || s === null || s.format !== SURFACE_FORMAT) {
    throw new TypeError(
      `${source} is not an mcp-inspect surface snapshot (format ${SURFACE_FORMAT})`,
    );
  }
  for (const key of ["tools", "resources", "resourceTemplates", "prompts"] as const) {
    if (!Array.isArray(s[key])) throw new TypeError(`${source}: "${key}" is not a list`);
  }
  return s as Surface;
}

/**
 * One difference between two surfaces.
 *
 * @example Printing each change with its severity
 * ```ts
 * import { Client } from "@mcp-inspect/client";
 * import { diffSurfaces, FakeServer, snapshotSurface } from "@mcp-inspect/client/testing";
 *
 * await using a = await Client.connect(new FakeServer({ tools: [{ name: "echo" }] }).transport());
 * await using b = await Client.connect(new FakeServer({ tools: [{ name: "add" }] }).transport());
 * const [old, now] = [await snapshotSurface(a), await snapshotSurface(b)];
 * for (const c of diffSurfaces(old, now)) console.log(c.severity, c.kind, c.name, c.detail);
 * // "breaking" "tool" "echo" "tool removed"
 * // "compatible" "tool" "add" "tool added"
 * ```
 */
export interface SurfaceChange {
  /** What changed. */
  kind: "server" | "tool" | "resource" | "resourceTemplate" | "prompt";
  /** Its name, URI or URI template. */
  name: string;
  /** Added, removed or changed. */
  change: "added" | "removed" | "changed";
  /** Whether a caller written against the old surface can break. */
  severity: "breaking" | "compatible";
  /** What differs, in a sentence. */
  detail: string;
}

type Keyed = { [key: string]: unknown };

/** Changes of one list of items, by key, with `compare` for items present in both. */
function listChanges<T extends Keyed>(
  kind: SurfaceChange["kind"],
  before: readonly T[],
  after: readonly T[],
  key: (item: T) => string,
  compare: (a: T, b: T) => Omit<SurfaceChange, "kind" | "name" | "change">[],
): SurfaceChange[] {
  const old = new Map(before.map((item) => [key(item), item]));
  const now = new Map(after.map((item) => [key(item), item]));
  const changes: SurfaceChange[] = [];
  for (const [name, item] of old) {
    const next = now.get(name);
    if (!next) {
      changes.push({
        kind,
        name,
        change: "removed",
        severity: "breaking",
        detail: `${kind} removed`,
      });
      continue;
    }
    if (canonicalize(item) === canonicalize(next)) continue;
    for (const c of compare(item, next)) changes.push({ kind, name, change: "changed", ...c });
  }
  for (const name of now.keys()) {
    if (!old.has(name)) {
      changes.push({
        kind,
        name,
        change: "added",
        severity: "compatible",
        detail: `${kind} added`,
      });
    }
  }
  return changes;
}

/** Fields compared as plain values; a change of any is compatible. */
function fieldChanges(a: Keyed, b: Keyed, skip: readonly string[]) {
  const changes: Omit<SurfaceChange, "kind" | "name" | "change">[] = [];
  for (const field of new Set([...Object.keys(a), ...Object.keys(b)])) {
    if (skip.includes(field) || canonicalize(a[field]) === canonicalize(b[field])) continue;
    changes.push({ severity: "compatible", detail: `${field} changed` });
  }
  return changes;
}

function toolChanges(a: Tool, b: Tool) {
  return [
    ...schemaChanges("input", a.inputSchema, b.inputSchema),
    ...schemaChanges("output", a.outputSchema, b.outputSchema),
    ...fieldChanges(a, b, ["name", "inputSchema", "outputSchema"]),
  ];
}

function promptChanges(a: Prompt, b: Prompt) {
  const changes: Omit<SurfaceChange, "kind" | "name" | "change">[] = [];
  const before = new Map((a.arguments ?? []).map((arg) => [arg.name, arg]));
  const after = new Map((b.arguments ?? []).map((arg) => [arg.name, arg]));
  for (const [name, arg] of before) {
    const next = after.get(name);
    if (!next) changes.push({ severity: "breaking", detail: `argument "${name}" removed` });
    else if (!arg.required && next.required) {
      changes.push({ severity: "breaking", detail: `argument "${name}" became required` });
    } else if (canonicalize(arg) !== canonicalize(next)) {
      changes.push({ severity: "compatible", detail: `argument "${name}" changed` });
    }
  }
  for (const [name, arg] of after) {
    if (before.has(name)) continue;
    changes.push(
      arg.required
        ? { severity: "breaking", detail: `required argument "${name}" added` }
        : { severity: "compatible", detail: `optional argument "${name}" added` },
    );
  }
  return [...changes, ...fieldChanges(a, b, ["name", "arguments"])];
}

/**
 * What changed from `before` to `after`: tools, resources, templates and prompts added, removed
 * or changed, each classified. Breaking: a removed tool, resource, template, prompt or property,
 * a new required property or argument, a narrowed type or enum. Compatible: anything added that
 * callers need not send, a changed description or annotation. Equal surfaces give `[]`.
 *
 * @example Failing CI on breaking changes only
 * ```ts
 * import { Client } from "@mcp-inspect/client";
 * import { diffSurfaces, FakeServer, parseSurface, snapshotSurface } from "@mcp-inspect/client/testing";
 *
 * const fake = new FakeServer({ tools: [{ name: "echo" }] });
 * await using client = await Client.connect(fake.transport());
 * const saved = JSON.stringify(await snapshotSurface(client)); // read from the repository in CI
 * const changes = diffSurfaces(parseSurface(JSON.parse(saved)), await snapshotSurface(client));
 * if (changes.some((c) => c.severity === "breaking")) Deno.exit(1);
 * console.log(changes); // []: nothing changed
 * ```
 */
export function diffSurfaces(before: Surface, after: Surface): SurfaceChange[] {
  const server: SurfaceChange[] = [];
  if (before.protocolVersion !== after.protocolVersion) {
    server.push({
      kind: "server",
      name: "protocolVersion",
      change: "changed",
      severity: "compatible",
      detail: `revision ${before.protocolVersion} → ${after.protocolVersion}`,
    });
  }
  for (const cap of Object.keys(before.capabilities ?? {})) {
    if (!(cap in (after.capabilities ?? {}))) {
      server.push({
        kind: "server",
        name: `capabilities.${cap}`,
        change: "removed",
        severity: "breaking",
        detail: `capability ${cap} no longer advertised`,
      });
    }
  }
  if ((before.instructions ?? "") !== (after.instructions ?? "")) {
    server.push({
      kind: "server",
      name: "instructions",
      change: "changed",
      severity: "compatible",
      detail: "instructions changed",
    });
  }
  return [
    ...server,
    ...listChanges("tool", before.tools, after.tools, (t) => t.name, toolChanges),
    ...listChanges(
      "resource",
      before.resources as Keyed[],
      after.resources as Keyed[],
      (r) => String(r.uri),
      (a, b) => fieldChanges(a, b, ["uri"]),
    ),
    ...listChanges(
      "resourceTemplate",
      before.resourceTemplates as Keyed[],
      after.resourceTemplates as Keyed[],
      (t) => String(t.uriTemplate),
      (a, b) => fieldChanges(a, b, ["uriTemplate"]),
    ),
    ...listChanges("prompt", before.prompts, after.prompts, (p) => p.name, promptChanges),
  ];
}

/**
 * The surface a recording shows: the handshake's server info, capabilities and instructions, and
 * every tool, resource, template and prompt its list answers carried (every page it recorded).
 *
 * @example Diffing a recording against a live server
 * ```ts
 * import { Client } from "@mcp-inspect/client";
 * import { diffSurfaces, FakeServer, parseRecording, snapshotSurface, surfaceFromRecording } from "@mcp-inspect/client/testing";
 *
 * const before = surfaceFromRecording(parseRecording(`
 * {"format":"mcp-inspect-recording","version":1,"tool":"0.1.0","server":"my-server","started":"2025-06-01T12:00:00.000Z"}
 * {"t":1,"dir":"send","msg":{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}}
 * {"t":2,"dir":"recv","msg":{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"fake","version":"1.0.0"}}}}
 * {"t":3,"dir":"send","msg":{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{}}}
 * {"t":4,"dir":"recv","msg":{"jsonrpc":"2.0","id":2,"result":{"tools":[{"name":"echo","inputSchema":{"type":"object"}}]}}}`));
 * const live = new FakeServer({ tools: [] }); // echo is gone
 * await using client = await Client.connect(live.transport(), { protocol: "legacy" });
 * const changes = diffSurfaces(before, await snapshotSurface(client));
 * console.log(changes.map((c) => `${c.severity}: ${c.name} ${c.detail}`));
 * // ["breaking: echo tool removed"]
 * ```
 */
export function surfaceFromRecording(recording: Recording): Surface {
  const methods = new Map<RequestId, string>();
  const results: { method: string; result: Record<string, unknown> }[] = [];
  for (const { dir, msg } of recording.messages) {
    if (dir === "send" && isRequest(msg)) methods.set(msg.id, msg.method);
    const id = (msg as { id?: RequestId }).id;
    if (dir === "recv" && "result" in msg && id !== undefined && methods.has(id)) {
      results.push({ method: methods.get(id)!, result: msg.result as Record<string, unknown> });
    }
  }
  const handshake = results.find((r) => r.method === "initialize" || r.method === "server/discover")
    ?.result;
  if (!handshake) {
    throw new TypeError("The recording has no answered initialize or server/discover");
  }
  const meta = handshake._meta as Record<string, unknown> | undefined;
  const all = <T>(method: string, field: string, key: (item: T) => string): T[] => {
    const items = new Map<string, T>();
    for (const r of results) {
      if (r.method !== method || !Array.isArray(r.result[field])) continue;
      for (const item of r.result[field] as T[]) items.set(key(item), item);
    }
    return byKey([...items.values()], key);
  };
  return stable({
    format: SURFACE_FORMAT,
    serverInfo: (handshake.serverInfo ?? meta?.[META.serverInfo] ??
      { name: "unknown", version: "unknown" }) as Implementation,
    protocolVersion: recording.header.protocolVersion ??
      String(handshake.protocolVersion ?? "unknown"),
    capabilities: (handshake.capabilities ?? {}) as ServerCapabilities,
    ...(typeof handshake.instructions === "string" ? { instructions: handshake.instructions } : {}),
    tools: all<Tool>("tools/list", "tools", (t) => t.name),
    resources: all<Resource>("resources/list", "resources", (r) => r.uri),
    resourceTemplates: all<ResourceTemplate>(
      "resources/templates/list",
      "resourceTemplates",
      (t) => t.uriTemplate,
    ),
    prompts: all<Prompt>("prompts/list", "prompts", (p) => p.name),
  });
}
