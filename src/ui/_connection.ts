// One server of the page: its connection, its wire log (bounded), its faults, its running calls,
// and what the page shows of it. Every string that may carry a secret goes through its redactor.

import {
  type Client,
  type Diagnostic,
  type JsonObject,
  type JsonRpcMessage,
  Redactor,
  type Tool,
} from "../../mod.ts";
import type { ServerConfig } from "../config/config.ts";
import { recordingTime } from "../record/record.ts";

/**
 * One message of a wire log: milliseconds since the connection started (to the microsecond, as
 * `--record` writes them), direction, message.
 */
export interface WireEntry {
  t: number;
  dir: "send" | "recv";
  msg: JsonRpcMessage;
}

/** What the page shows of a server. */
export interface ServerSummary {
  name: string;
  transport: "stdio" | "http" | "sse";
  target: string;
  status: "connecting" | "connected" | "failed" | "closed";
  error?: string | undefined;
  serverInfo?: { name: string; version: string; title?: string | undefined } | undefined;
  protocolVersion?: string | undefined;
  era?: "modern" | "legacy" | undefined;
  capabilities?: JsonObject | undefined;
  instructions?: string | undefined;
  diagnostics: Diagnostic[];
  wireDropped: number;
}

/** The most messages a wire log keeps per server; older ones are dropped (and counted). */
export const MAX_WIRE_ENTRIES = 5_000;

/** One connection to a server; reconnecting makes a new one, so its wire log starts over. */
export class Connection {
  client: Client | undefined;
  status: ServerSummary["status"] = "connecting";
  error: string | undefined;
  readonly wire: WireEntry[] = [];
  wireDropped = 0;
  readonly diagnostics: Diagnostic[] = [];
  started: number = performance.now();
  readonly redactor: Redactor;
  readonly calls: Map<string, AbortController> = new Map();
  /** The tools of the last list, by name: what a call's result is checked against. */
  tools: Map<string, Tool> | undefined;

  constructor(readonly name: string, readonly config: ServerConfig) {
    this.redactor = new Redactor(Object.values("command" in config ? config.env ?? {} : {}));
    if (!("command" in config)) {
      this.redactor.addHeaders(config.headers ?? {});
      this.redactor.addUrl(config.url);
    }
  }

  /** The server's command line or URL, secrets redacted. */
  get target(): string {
    const config = this.config;
    const text = "command" in config
      ? [config.command, ...(config.args ?? [])].join(" ")
      : config.url;
    return this.redactor.redact(text);
  }

  /** Adds a message to the wire log, dropping the oldest past {@link MAX_WIRE_ENTRIES}. */
  log(dir: WireEntry["dir"], msg: JsonRpcMessage): WireEntry {
    // The recorder's clock: an exported log is a recording, and must time what --record would.
    const entry = { t: recordingTime(this.started), dir, msg };
    this.wire.push(entry);
    if (this.wire.length > MAX_WIRE_ENTRIES) {
      this.wire.shift();
      this.wireDropped++;
    }
    return entry;
  }

  /** What the page shows of the server. */
  summary(): ServerSummary {
    const client = this.status === "connected" ? this.client : undefined;
    const config = this.config;
    return {
      name: this.name,
      transport: "command" in config ? "stdio" : config.type === "sse" ? "sse" : "http",
      target: this.target,
      status: this.status,
      error: this.error,
      serverInfo: client?.serverInfo,
      protocolVersion: client?.protocolVersion,
      era: client?.era,
      capabilities: client?.serverCapabilities as JsonObject | undefined,
      instructions: client?.instructions,
      diagnostics: this.diagnostics,
      wireDropped: this.wireDropped,
    };
  }
}
