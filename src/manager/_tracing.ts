// One OpenTelemetry span per tool call, named `mcp.<server>.<tool>`, through the API package
// only: without an SDK configured by the host every call here is a no-op. The span's context
// travels to the server as W3C trace context (`traceparent`, `tracestate`) in the request's
// `_meta`, the carrier the MCP OpenTelemetry conventions use.

import {
  type Context,
  context,
  propagation,
  type Span,
  SpanKind,
  SpanStatusCode,
  trace,
} from "@opentelemetry/api";
import type { JsonObject } from "../jsonrpc.ts";
import type { CallToolResult } from "../types.ts";
import { VERSION } from "../version.ts";

const META_GETTER = {
  keys: (carrier: JsonObject) => Object.keys(carrier),
  get: (carrier: JsonObject, key: string) => {
    const value = carrier[key];
    return typeof value === "string" ? value : undefined;
  },
};

/** The parent context: the trace context in an incoming `_meta` (the proxy), else the active one. */
function parentOf(meta: JsonObject | undefined): Context {
  return meta ? propagation.extract(context.active(), meta, META_GETTER) : context.active();
}

/**
 * Runs a tool call inside its span. `run` receives the `_meta` entries to send: the incoming
 * ones plus the trace context of the new span.
 */
export async function tracedToolCall(
  server: string,
  tool: string,
  incoming: JsonObject | undefined,
  run: (meta: JsonObject) => Promise<CallToolResult>,
): Promise<CallToolResult> {
  const tracer = trace.getTracer("mcp-inspect", VERSION);
  const parent = parentOf(incoming);
  const span: Span = tracer.startSpan(`mcp.${server}.${tool}`, {
    kind: SpanKind.CLIENT,
    attributes: {
      "mcp.method.name": "tools/call",
      "mcp.server.name": server,
      "gen_ai.operation.name": "execute_tool",
      "gen_ai.tool.name": tool,
    },
  }, parent);
  const active = trace.setSpan(parent, span);
  const meta: JsonObject = { ...incoming };
  propagation.inject(active, meta);
  try {
    const result = await context.with(active, () => run(meta));
    if (result.isError) span.setStatus({ code: SpanStatusCode.ERROR, message: "tool error" });
    return result;
  } catch (error) {
    span.recordException(error as Error);
    span.setStatus({ code: SpanStatusCode.ERROR, message: (error as Error)?.message });
    throw error;
  } finally {
    span.end();
  }
}
