// The modern era (2026-07-28): per-request `_meta`, result types, and the request loop itself:
// a fresh cached result answers at once, and `input_required` results are answered and retried.

import { ProtocolError } from "../errors.ts";
import type { JsonObject } from "../jsonrpc.ts";
import type { RequestOptions } from "../session.ts";
import type { ClientCapabilities, Implementation } from "../types.ts";
import { MODERN_PROTOCOL_VERSIONS } from "../types.ts";
import { CACHEABLE_METHODS, TtlCache } from "./_cache.ts";
import type { CacheOptions } from "./types.ts";

import { META, MODERN_ERROR_CODES } from "../protocol.ts";

export { META, MODERN_ERROR_CODES };

/** Requests a server may answer with `input_required` (spec: basic/patterns/mrtr). */
export const MRTR_METHODS: ReadonlySet<string> = new Set([
  "tools/call",
  "prompts/get",
  "resources/read",
]);

/** Errors only a modern server sends: they prove the era even when the request failed. */

/** Whether a revision belongs to the modern era (this one or a later, unknown one). */
export function isModern(version: string): boolean {
  return MODERN_PROTOCOL_VERSIONS.includes(version) || version > "2026-07-28";
}

/** What every modern request says about the client. */
export interface RequestIdentity {
  protocolVersion: string;
  capabilities: ClientCapabilities;
  clientInfo: Implementation;
  logLevel?: string | undefined;
}

/** The modern request `_meta` that says who the client is: one object, shared by many requests. */
export function identityMeta(identity: RequestIdentity): JsonObject {
  const meta: JsonObject = {
    [META.protocolVersion]: identity.protocolVersion,
    [META.clientCapabilities]: identity.capabilities,
    [META.clientInfo]: identity.clientInfo,
  };
  if (identity.logLevel !== undefined) meta[META.logLevel] = identity.logLevel;
  return meta;
}

/**
 * The identity `_meta` of one client's modern requests: one object, shared by its requests and
 * built again only when the revision or the log level changed.
 */
export class IdentityMeta {
  readonly #capabilities: ClientCapabilities;
  readonly #clientInfo: Implementation;
  /** The last `_meta` built, and what it was built from. */
  #built: { protocolVersion: string; logLevel: string | undefined; meta: JsonObject } | undefined;

  constructor(capabilities: ClientCapabilities, clientInfo: Implementation) {
    this.#capabilities = capabilities;
    this.#clientInfo = clientInfo;
  }

  /** The `_meta` of a request in this revision at this log level. */
  of(protocolVersion: string, logLevel: string | undefined): JsonObject {
    const built = this.#built;
    if (built?.protocolVersion === protocolVersion && built.logLevel === logLevel) {
      return built.meta;
    }
    const meta = identityMeta({
      protocolVersion,
      capabilities: this.#capabilities,
      clientInfo: this.#clientInfo,
      logLevel,
    });
    this.#built = { protocolVersion, logLevel, meta };
    return meta;
  }
}

/**
 * Adds the modern request `_meta` (an {@link identityMeta}) to params, keeping whatever `_meta`
 * the caller set. `meta` may be shared with other requests: it is never changed, and params
 * without a `_meta` of their own carry it as it is.
 */
export function withMeta(params: JsonObject, meta: JsonObject): JsonObject {
  const own = params._meta as JsonObject | undefined;
  return { ...params, _meta: own === undefined ? meta : { ...own, ...meta } };
}

/** The server's identity from a modern result's `_meta`, if it gave one. */
export function serverInfoOf(result: JsonObject): Implementation | undefined {
  const info = (result._meta as JsonObject | undefined)?.[META.serverInfo];
  if (typeof info !== "object" || info === null) return undefined;
  return typeof (info as Implementation).name === "string" ? info as Implementation : undefined;
}

/** The requests a server asks the client to fulfil before it can answer. */
export interface InputRequest {
  method: string;
  params?: JsonObject;
}

/** The interim result of a multi round-trip request. */
export interface InputRequired {
  inputRequests: Record<string, InputRequest>;
  requestState: string | undefined;
}

/**
 * Reads `resultType`: absent means complete (spec: clients MUST treat results from earlier
 * servers that omit it as complete); `input_required` yields what the server asks for.
 */
export function inputRequired(method: string, result: JsonObject): InputRequired | undefined {
  const type = result.resultType ?? "complete";
  // "task" (the tasks extension) is final at this layer: callTool() waits for the task.
  if (type === "complete" || type === "task") return undefined;
  if (type !== "input_required") {
    throw new ProtocolError(
      `Server answered ${method} with unknown resultType ${JSON.stringify(type)}`,
    );
  }
  if (!MRTR_METHODS.has(method)) {
    throw new ProtocolError(
      `Server answered ${method} with input_required, which only tools/call, prompts/get and resources/read allow`,
    );
  }
  const requests = result.inputRequests ?? {};
  if (typeof requests !== "object" || requests === null || Array.isArray(requests)) {
    throw new ProtocolError(
      `Invalid input_required result of ${method}: "inputRequests" must be an object`,
    );
  }
  if (result.requestState !== undefined && typeof result.requestState !== "string") {
    throw new ProtocolError(
      `Invalid input_required result of ${method}: "requestState" must be a string`,
    );
  }
  if (Object.keys(requests).length === 0 && result.requestState === undefined) {
    throw new ProtocolError(
      `Invalid input_required result of ${method}: it carries neither inputRequests nor requestState`,
    );
  }
  for (const [key, request] of Object.entries(requests as Record<string, unknown>)) {
    if (typeof (request as InputRequest | null)?.method !== "string") {
      throw new ProtocolError(`Invalid input request "${key}" of ${method}: it has no method`);
    }
  }
  return {
    inputRequests: requests as Record<string, InputRequest>,
    requestState: result.requestState as string | undefined,
  };
}

/** What a request of the modern era needs of the client. */
export interface ModernContext {
  /** Sends one round of the request, adding the per-request `_meta`. */
  send(method: string, params: JsonObject, options: RequestOptions): Promise<JsonObject>;
  cache: TtlCache;
  /** Most rounds before giving up (`maxInputRounds`). */
  maxRounds: number;
  /** Answers the server's input requests through the client's handlers. */
  answer(
    method: string,
    requests: Record<string, InputRequest>,
    signal: AbortSignal | undefined,
  ): Promise<JsonObject>;
  /** Receives the server's identity whenever a result carries it. */
  onServerInfo(info: Implementation): void;
}

/**
 * Sends a request of the modern era: a fresh cached result answers it at once; otherwise each
 * `input_required` result is answered and the request retried, until it completes. Not async
 * itself: most requests complete in their first round, which takes no async frame of its own.
 */
export function modernRequest(
  context: ModernContext,
  method: string,
  params: JsonObject,
  options: CacheOptions,
): Promise<JsonObject> {
  try {
    // The session reads only its own options; bypassCache rides along unread, with no copy made.
    const limits: RequestOptions = options;
    const cacheKey = CACHEABLE_METHODS.has(method) ? TtlCache.key(method, params) : undefined;
    if (cacheKey && !options.bypassCache) {
      const cached = context.cache.get(cacheKey);
      if (cached) return Promise.resolve(cached);
    }
    return context.send(method, params, limits).then((result) =>
      settle(context, method, params, limits, cacheKey, result, 0)
    );
  } catch (error) {
    return Promise.reject(error); // fails as the awaited request, not in the caller's turn
  }
}

/**
 * Takes the result of round `round` of a request sent with `params`: a final one is returned
 * (and cached, under `cacheKey`); an `input_required` one is answered and the request sent again.
 */
function settle(
  context: ModernContext,
  method: string,
  params: JsonObject,
  limits: RequestOptions,
  cacheKey: string | undefined,
  result: JsonObject,
  round: number,
): JsonObject | Promise<JsonObject> {
  const info = serverInfoOf(result);
  if (info) context.onServerInfo(info);
  const needed = inputRequired(method, result);
  if (!needed) {
    if (cacheKey) context.cache.set(cacheKey, result);
    return result;
  }
  return nextRound(context, method, params, limits, cacheKey, needed, round);
}

/** Answers the input requests of round `round` and sends the request again. */
async function nextRound(
  context: ModernContext,
  method: string,
  params: JsonObject,
  limits: RequestOptions,
  cacheKey: string | undefined,
  needed: InputRequired,
  round: number,
): Promise<JsonObject> {
  if (round + 1 >= context.maxRounds) {
    throw new ProtocolError(
      `Server still wanted input for ${method} after ${context.maxRounds} rounds (maxInputRounds)`,
    );
  }
  const inputResponses = await context.answer(method, needed.inputRequests, limits.signal);
  // The retry carries the original params, our answers, and the server's state untouched.
  const { inputResponses: _old, requestState: _state, ...original } = params;
  const next: JsonObject = { ...original, inputResponses };
  if (needed.requestState !== undefined) next.requestState = needed.requestState;
  const result = await context.send(method, next, limits);
  return settle(context, method, next, limits, cacheKey, result, round + 1);
}
