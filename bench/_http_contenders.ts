// The contenders of bench/http.ts: the bare fetch loop (the limit), this client, the layer rows
// that show where its time goes (for each revision, the bare loop doing all any safe client owes
// each call, the floor of a safe client, and this client on the least transport it can run on,
// with the fetch options this transport's safety needs, and for 2025-11-25 without them too), and
// the official SDK v2 client. Each runs in a process of its own, started by bench/http.ts; the
// layers also run together in one process, in bench/http_layers.ts.

import { Client as SdkV2Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import {
  Client,
  type JsonRpcMessage,
  StreamableHttpTransport,
  toMessage,
  type Transport,
} from "../mod.ts";
import { callRunner, type Runner } from "./_runner.ts";

const CLIENT_INFO = { name: "bench", version: "1.0.0" };

/** The revisions compared: each contender speaks one, and is held to the bare loop of the same. */
export type Era = "2025-11-25" | "2026-07-28";

/**
 * How much a bare loop does besides its POST: nothing (`bare`, the limit), or everything any safe
 * client owes each call with no client around it (`owed`): the fetch options
 * StreamableHttpTransport's safety needs (see LeastTransport), and {@link owedAnswer}.
 */
type BareLevel = "bare" | "owed";

/** Redirect statuses: with `redirect: "manual"` a client sees them and must not take them as answers. */
const REDIRECTS = new Set([301, 302, 303, 307, 308]);
/** The size bound of the `owed` loop: StreamableHttpTransport's default `maxBytes`. */
const MAX_BYTES = 10 * 1024 * 1024;

/**
 * What any safe client does with an answer, and nothing more: the status and redirect checks,
 * the content type's dispatch (JSON, or SSE read as the bare loop reads it), the declared length
 * and encoding (the bound on what is read: Deno inflates a compressed body past its declared
 * length), the parse, the message's shape (this client's own `toMessage()`) and its id.
 */
async function owedAnswer(response: Response, id: number): Promise<JsonRpcMessage> {
  if (REDIRECTS.has(response.status)) throw new Error(`redirected (${response.status})`);
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  const type = (response.headers.get("content-type") ?? "").toLowerCase();
  const sse = type.includes("text/event-stream");
  if (!sse && !type.includes("application/json")) throw new Error(`content type ${type}`);
  const length = response.headers.get("content-length");
  if (
    length === null || response.headers.get("content-encoding") !== null ||
    Number(length) > MAX_BYTES
  ) {
    throw new Error("no declared length within the bound");
  }
  const text = await response.text();
  const message = toMessage(JSON.parse(sse ? text.slice(text.indexOf("{")) : text));
  if (!("result" in message) || message.id !== id) throw new Error("not this call's answer");
  return message;
}

/**
 * One POST per call, with nothing around it but what `level` names; the body read as text and
 * parsed, SSE or not. It sends what the revision asks of every request and no more: in
 * 2026-07-28, the `_meta` naming the revision, the client's capabilities and identity, and the
 * Mcp-Method and Mcp-Name headers.
 */
function bareFetch(url: string, era: Era, level: BareLevel = "bare"): Promise<Runner> {
  let id = 0;
  const abort = new AbortController();
  const owed = level === "owed";
  const target: string | URL = owed ? new URL(url) : url;
  const extra: RequestInit = owed ? { signal: abort.signal, redirect: "manual" } : {};
  const modern = era === "2026-07-28";
  const headers: Record<string, string> = {
    accept: "application/json, text/event-stream",
    "content-type": "application/json",
    "mcp-protocol-version": era,
    ...(modern ? { "mcp-method": "tools/call", "mcp-name": "echo" } : {}),
  };
  const meta = {
    "io.modelcontextprotocol/protocolVersion": era,
    "io.modelcontextprotocol/clientCapabilities": {},
    "io.modelcontextprotocol/clientInfo": CLIENT_INFO,
  };
  const call = async () => {
    const params: Record<string, unknown> = { name: "echo", arguments: { text: "hi" } };
    if (modern) params._meta = meta;
    const mine = ++id;
    const body = JSON.stringify({ jsonrpc: "2.0", id: mine, method: "tools/call", params });
    // A client's headers are its own per request (a session id comes and goes): copied, at `owed`.
    const sent = owed ? { ...headers } : headers;
    const response = await fetch(target, { method: "POST", headers: sent, body, ...extra });
    if (owed) return owedAnswer(response, mine);
    const text = await response.text();
    return JSON.parse(text.startsWith("{") ? text : text.slice(text.indexOf("{")));
  };
  return Promise.resolve(callRunner(call, () => Promise.resolve(abort.abort())));
}

export interface HttpContender {
  name: string;
  era: Era;
  connect(url: string): Promise<Runner>;
}

/**
 * The least transport this client can run on: a POST per message, a request's JSON answer parsed
 * and handed to the session; no session id, gate, ledger, size limit or checks. With `options`,
 * each fetch also gets what StreamableHttpTransport's safety needs of it: a signal (how close()
 * ends the POSTs in flight) and `redirect: "manual"` (redirects followed by hand, within the
 * origin). Each request carries the headers its revision asks for (see modernHeaders()). Against
 * the bare loop these rows show what the client and session cost, then what those fetch options
 * cost; against them, this client's row shows what the transport's own work costs.
 */
class LeastTransport implements Transport {
  onMessage: ((message: JsonRpcMessage) => void) | undefined;
  readonly readable: ReadableStream<JsonRpcMessage>;
  readonly writable: WritableStream<JsonRpcMessage>;
  readonly #url: string | URL;
  readonly #options: boolean;
  readonly #abort = new AbortController();
  readonly #headers: Record<string, string> = {
    accept: "application/json, text/event-stream",
    "content-type": "application/json",
  };
  #end!: ReadableStreamDefaultController<JsonRpcMessage>;

  constructor(url: string, options: boolean) {
    this.#url = options ? new URL(url) : url;
    this.#options = options;
    this.readable = new ReadableStream({ start: (controller) => void (this.#end = controller) });
    this.writable = new WritableStream({ write: (message) => this.send(message) });
  }

  start(): Promise<void> {
    return Promise.resolve();
  }

  setProtocolVersion(version: string): void {
    this.#headers["mcp-protocol-version"] = version;
  }

  async send(message: JsonRpcMessage): Promise<void> {
    const init: RequestInit = {
      method: "POST",
      headers: modernHeaders(message, this.#headers) ?? this.#headers,
      body: JSON.stringify(message),
    };
    if (this.#options) {
      init.signal = this.#abort.signal;
      init.redirect = "manual";
    }
    const response = await fetch(this.#url, init);
    if (!("method" in message && "id" in message)) return void await response.body?.cancel();
    // An SSE answer is one event here, parsed as the bare loop parses it.
    const text = await response.text();
    this.onMessage!(JSON.parse(text.startsWith("{") ? text : text.slice(text.indexOf("{"))));
  }

  close(): Promise<void> {
    this.#abort.abort();
    try {
      this.#end.close();
    } catch {
      // closed already
    }
    return Promise.resolve();
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }
}

/**
 * `base` and the headers 2026-07-28 asks of a request, when `message` declares that revision in
 * its `_meta`: the revision, Mcp-Method and, for a named tool, Mcp-Name (as the bare loop sends
 * them); undefined for any other message.
 */
function modernHeaders(
  message: JsonRpcMessage,
  base: Record<string, string>,
): Record<string, string> | undefined {
  if (!("method" in message)) return undefined;
  const params = message.params as Record<string, unknown> | undefined;
  const meta = params?._meta as Record<string, unknown> | undefined;
  const version = meta?.["io.modelcontextprotocol/protocolVersion"];
  if (typeof version !== "string") return undefined;
  const headers = { ...base, "mcp-protocol-version": version, "mcp-method": message.method };
  return typeof params?.name === "string" ? { ...headers, "mcp-name": params.name } : headers;
}

/** This client on {@link LeastTransport}, held to one revision. */
async function onLeastTransport(url: string, options: boolean, era: Era): Promise<Runner> {
  const client = await Client.connect(new LeastTransport(url, options), {
    clientInfo: CLIENT_INFO,
    protocol: era === "2026-07-28" ? "modern" : era,
  });
  return callRunner(() => client.callTool("echo", { text: "hi" }), () => client.close());
}

/** This client, held to one revision. */
async function ours(url: string, era: Era): Promise<Runner> {
  const client = await Client.connect(new StreamableHttpTransport({ url }), {
    clientInfo: CLIENT_INFO,
    protocol: era === "2026-07-28" ? "modern" : era,
  });
  if (client.protocolVersion !== era) {
    throw new Error(`mcp-inspect negotiated ${client.protocolVersion}, not ${era}`);
  }
  return callRunner(() => client.callTool("echo", { text: "hi" }), () => client.close());
}

export const OURS = "mcp-inspect";
const BARE_AGAIN = "bare fetch again";
/** The bare loop doing all any safe client owes each call: the floor of a safe client. */
export const BARE_OWED = "bare fetch + all a client owes";
export const SDK = "sdk v2 2.4.0";
const LEAST = "client, least transport";
const LEAST_OPTIONS = "client, least transport + options";

export const CONTENDERS: HttpContender[] = [
  {
    name: "bare fetch",
    era: "2025-11-25",
    connect: (url) => bareFetch(url, "2025-11-25"),
  },
  {
    // The limit once more, in another process: how far apart identical code measures.
    name: BARE_AGAIN,
    era: "2025-11-25",
    connect: (url) => bareFetch(url, "2025-11-25"),
  },
  {
    // The floor of any safe client: the fetch options and every check of the answer, no client.
    name: BARE_OWED,
    era: "2025-11-25",
    connect: (url) => bareFetch(url, "2025-11-25", "owed"),
  },
  { name: OURS, era: "2025-11-25", connect: (url) => ours(url, "2025-11-25") },
  {
    name: LEAST,
    era: "2025-11-25",
    connect: (url) => onLeastTransport(url, false, "2025-11-25"),
  },
  {
    name: LEAST_OPTIONS,
    era: "2025-11-25",
    connect: (url) => onLeastTransport(url, true, "2025-11-25"),
  },
  {
    name: SDK,
    era: "2025-11-25",
    async connect(url) {
      const client = new SdkV2Client(CLIENT_INFO);
      await client.connect(new StreamableHTTPClientTransport(new URL(url)));
      return callRunner(
        () => client.callTool({ name: "echo", arguments: { text: "hi" } }),
        () => client.close(),
      );
    },
  },
  {
    name: "bare fetch",
    era: "2026-07-28",
    connect: (url) => bareFetch(url, "2026-07-28"),
  },
  {
    name: BARE_OWED,
    era: "2026-07-28",
    connect: (url) => bareFetch(url, "2026-07-28", "owed"),
  },
  {
    name: LEAST_OPTIONS,
    era: "2026-07-28",
    connect: (url) => onLeastTransport(url, true, "2026-07-28"),
  },
  { name: OURS, era: "2026-07-28", connect: (url) => ours(url, "2026-07-28") },
];

/**
 * The layers of bench/http_layers.ts, for each revision: the bare loop (the limit), the floor of
 * a safe client, this client on the least transport with the fetch options, and this client. Each
 * adds to the one before what sets it apart: the fetch options and the checks of the answer; the
 * client and its session; this transport's own work (the checks again, the limit on requests in
 * flight, the ledger of requests, the headers of each revision).
 */
export const LAYERS: HttpContender[] = (["2025-11-25", "2026-07-28"] as const).flatMap((era) =>
  ["bare fetch", BARE_OWED, LEAST_OPTIONS, OURS].map((name) =>
    CONTENDERS.find((contender) => contender.name === name && contender.era === era)!
  )
);
