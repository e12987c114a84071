import assert from "node:assert/strict";
import { context, propagation, trace } from "@opentelemetry/api";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import { ServerManager } from "../../src/manager/mod.ts";
import { fakeServer } from "../_helpers.ts";

Deno.test("a tool call is a span mcp.<server>.<tool> whose context reaches the server in _meta", async () => {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  trace.setGlobalTracerProvider(provider);
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  try {
    await using manager = new ServerManager({ healthIntervalMs: 0 });
    const { command, args } = fakeServer("meta_echo.ts");
    await manager.connect("echoer", { command, args: [...args!] });
    const result = await manager.callTool("mcp__echoer__meta", {}, {
      onProgress: () => {},
    });
    const meta = JSON.parse((result.content[0] as { text: string }).text);
    const [span] = exporter.getFinishedSpans();
    assert.ok(span);
    assert.equal(span.name, "mcp.echoer.meta");
    assert.equal(span.attributes["gen_ai.tool.name"], "meta");
    const { traceId, spanId } = span.spanContext();
    assert.equal(meta.traceparent, `00-${traceId}-${spanId}-01`);
    assert.equal(typeof meta.progressToken, "number", "the client's own _meta is kept");

    // A trace context arriving in an incoming request's _meta becomes the parent.
    const parent = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";
    await manager.callTool("echoer", "meta", {}, { meta: { traceparent: parent } });
    const child = exporter.getFinishedSpans()[1]!;
    assert.equal(child.spanContext().traceId, "0af7651916cd43dd8448eb211c80319c");
    assert.equal(child.parentSpanContext?.spanId, "b7ad6b7169203331");
  } finally {
    trace.disable();
    propagation.disable();
    context.disable();
    await provider.shutdown();
  }
});

Deno.test("without an OpenTelemetry SDK, calls carry no trace context", async () => {
  await using manager = new ServerManager({ healthIntervalMs: 0 });
  const { command, args } = fakeServer("meta_echo.ts");
  await manager.connect("echoer", { command, args: [...args!] });
  const result = await manager.callTool("mcp__echoer__meta");
  assert.equal((result.content[0] as { text: string }).text, "{}");
});
