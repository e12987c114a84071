// Choosing the era and revision: probe with server/discover, fall back to the initialize
// handshake for legacy servers (spec 2026-07-28 basic/versioning, backward compatibility).

import {
  ConnectionClosedError,
  HttpError,
  McpError,
  ProtocolError,
  TimeoutError,
  UnsupportedProtocolVersionError,
} from "../errors.ts";
import type { JsonObject } from "../jsonrpc.ts";
import type { RequestOptions, Session } from "../session.ts";
import {
  type ClientCapabilities,
  type DiscoveryVerdict,
  type Implementation,
  LATEST_LEGACY_PROTOCOL_VERSION,
  LEGACY_PROTOCOL_VERSIONS,
  MODERN_PROTOCOL_VERSIONS,
  type ProtocolChoice,
  type ServerCapabilities,
} from "../types.ts";
import { identityMeta, isModern, MODERN_ERROR_CODES, serverInfoOf, withMeta } from "./_modern.ts";

/** The outcome of negotiation. */
export interface Negotiated extends DiscoveryVerdict {
  serverInfo: Implementation;
  capabilities: ServerCapabilities;
  instructions: string | undefined;
}

/** The state before negotiation: legacy, no revision, an unnamed server that offers nothing. */
export function notNegotiated(): Negotiated {
  return {
    era: "legacy",
    protocolVersion: "",
    serverInfo: { name: "", version: "" },
    capabilities: {},
    instructions: undefined,
  };
}

export interface NegotiateOptions {
  protocol: ProtocolChoice;
  verdict: DiscoveryVerdict | undefined;
  capabilities: ClientCapabilities;
  clientInfo: Implementation;
  probeTimeoutMs: number;
  signal: AbortSignal | undefined;
  label: () => string;
  /** Called with the chosen revision before anything else is sent in it. */
  onVersion: (version: string) => void;
}

export async function negotiate(session: Session, options: NegotiateOptions): Promise<Negotiated> {
  const { protocol, verdict } = options;
  const pinned = protocol !== "auto" && protocol !== "modern" && protocol !== "legacy"
    ? protocol
    : undefined;
  if (
    pinned && !MODERN_PROTOCOL_VERSIONS.includes(pinned) &&
    !LEGACY_PROTOCOL_VERSIONS.includes(pinned)
  ) {
    throw new ProtocolError(`Protocol revision "${pinned}" is not one this client speaks`);
  }
  const legacyOnly = protocol === "legacy" || (pinned !== undefined && !isModern(pinned)) ||
    (protocol === "auto" && verdict?.era === "legacy");
  if (legacyOnly) {
    return await initialize(
      session,
      options,
      pinned ?? (verdict?.era === "legacy" ? verdict.protocolVersion : undefined),
    );
  }
  const first = pinned ??
    (verdict?.era === "modern" ? verdict.protocolVersion : MODERN_PROTOCOL_VERSIONS[0]!);
  try {
    return await discover(session, options, first);
  } catch (error) {
    if (error instanceof UnsupportedProtocolVersionError && !pinned) {
      // A modern server that wants another revision: retry once with one we share.
      // (It may name the revision we asked for: the retry is what it wants to see.)
      const modern = error.supported.find((v) => MODERN_PROTOCOL_VERSIONS.includes(v));
      if (modern) return await discover(session, options, modern);
      const legacy = error.supported.find((v) => LEGACY_PROTOCOL_VERSIONS.includes(v));
      if (legacy && protocol === "auto") return await initialize(session, options, legacy);
    }
    if (error instanceof UnsupportedProtocolVersionError) {
      throw new ProtocolError(
        `${who(options)} speaks none of our revisions (it supports ${
          error.supported.join(", ") || "nothing it named"
        })`,
        { cause: error },
      );
    }
    if (protocol !== "auto" || !looksLegacy(error)) throw error;
    return await initialize(session, options, undefined);
  }
}

/**
 * A failed probe means "legacy" unless it is a modern error or the connection is gone
 * (spec: the fallback must not be keyed to one error code).
 */
function looksLegacy(error: unknown): boolean {
  if (error instanceof ConnectionClosedError) return false;
  if (error instanceof McpError) return !MODERN_ERROR_CODES.has(error.code);
  if (error instanceof HttpError) return [400, 404, 405].includes(error.status);
  return error instanceof TimeoutError || error instanceof ProtocolError;
}

async function discover(
  session: Session,
  options: NegotiateOptions,
  version: string,
): Promise<Negotiated> {
  const params = withMeta(
    {},
    identityMeta({
      protocolVersion: version,
      capabilities: options.capabilities,
      clientInfo: options.clientInfo,
    }),
  );
  const result = await session.request(
    "server/discover",
    params,
    limits(options, options.probeTimeoutMs),
  );
  const supported = Array.isArray(result.supportedVersions)
    ? result.supportedVersions.filter((v): v is string => typeof v === "string")
    : [];
  const chosen = supported.includes(version)
    ? version
    : supported.find((v) => MODERN_PROTOCOL_VERSIONS.includes(v));
  if (!chosen) {
    const legacy = supported.find((v) => LEGACY_PROTOCOL_VERSIONS.includes(v));
    if (legacy && options.protocol === "auto") return await initialize(session, options, legacy);
    throw new ProtocolError(
      `${who(options)} supports ${
        supported.join(", ") || "no revision it named"
      }; this client speaks ${MODERN_PROTOCOL_VERSIONS.join(", ")} in the modern era`,
    );
  }
  options.onVersion(chosen);
  return {
    era: "modern",
    protocolVersion: chosen,
    serverInfo: serverInfoOf(result) ?? { name: "", version: "" },
    capabilities: (result.capabilities ?? {}) as ServerCapabilities,
    instructions: typeof result.instructions === "string" ? result.instructions : undefined,
  };
}

async function initialize(
  session: Session,
  options: NegotiateOptions,
  offered: string | undefined,
): Promise<Negotiated> {
  const result: JsonObject = await session.request("initialize", {
    protocolVersion: offered ?? LATEST_LEGACY_PROTOCOL_VERSION,
    capabilities: options.capabilities,
    clientInfo: options.clientInfo,
  }, limits(options));
  const version = result.protocolVersion;
  if (typeof version !== "string" || !LEGACY_PROTOCOL_VERSIONS.includes(version)) {
    throw new ProtocolError(
      `${who(options)} answered initialize with protocol revision ${
        JSON.stringify(version)
      }, which this client does not support (it supports ${LEGACY_PROTOCOL_VERSIONS.join(", ")})`,
    );
  }
  const info = result.serverInfo as Implementation | undefined;
  if (typeof info !== "object" || info === null || typeof info.name !== "string") {
    throw new ProtocolError(`Invalid initialize result: "serverInfo" must have a "name"`);
  }
  options.onVersion(version);
  await session.notify("notifications/initialized");
  return {
    era: "legacy",
    protocolVersion: version,
    serverInfo: info,
    capabilities: (result.capabilities ?? {}) as ServerCapabilities,
    instructions: typeof result.instructions === "string" ? result.instructions : undefined,
  };
}

function limits(options: NegotiateOptions, timeoutMs?: number): RequestOptions {
  return { signal: options.signal, timeoutMs };
}

/** How messages name the server: by name when known. */
function who(options: NegotiateOptions): string {
  const label = options.label();
  return label === "the server" ? "The server" : `Server "${label}"`;
}
