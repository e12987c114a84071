// Every fault a server commits in its answers reaches onDiagnostic; one that names a pending
// request fails that request at once with a ProtocolError instead of letting it time out.

import assert from "node:assert/strict";
import { Client, type Diagnostic, ProtocolError, StdioTransport } from "../mod.ts";
import { fakeServer } from "./_helpers.ts";

/** Both eras: the legacy handshake, and 2026-07-28 (server/discover) over the same session. */
const ERAS = [["legacy", []], ["modern", ["--modern"]]] as const;

async function withFault(
  fault: string,
  era: (typeof ERAS)[number],
  run: (client: Client, diagnostics: Diagnostic[]) => Promise<void>,
): Promise<void> {
  const diagnostics: Diagnostic[] = [];
  const [protocol, flags] = era;
  // A long timeout: a request failed "at once" must not need it.
  const transport = new StdioTransport(fakeServer("faults.ts", [fault, ...flags]));
  await using client = await Client.connect(transport, {
    protocol,
    requestTimeoutMs: 60_000,
    onDiagnostic: (d) => diagnostics.push(d),
  });
  await run(client, diagnostics);
}

for (
  const [fault, reason] of [
    ["error-without-code", /"error" needs a numeric "code"/],
    ["jsonrpc-1.0", /"jsonrpc" must be "2\.0"/],
    ["result-not-object", /"result" must be an object/],
  ] as const
) {
  for (const era of ERAS) {
    Deno.test(`a malformed answer (${fault}, ${era[0]} era) fails its request at once and is reported`, async () => {
      await withFault(fault, era, async (client, diagnostics) => {
        const error = await client.listTools().then(() => assert.fail("answered"), (e) => e);
        assert.ok(error instanceof ProtocolError, String(error));
        assert.match(error.message, /The server's answer to tools\/list \(id \d+\) is invalid/);
        assert.match(error.message, reason);
        assert.ok(diagnostics.some((d) => d.kind === "invalid-message" && d.id !== undefined));
      });
    });
  }
}

for (
  const [fault, kind, message] of [
    ["null-id-error", "unattributed-error", /error tied to no request \(-32700: Parse error\)/],
    ["unknown-id", "unknown-response", /answered request id 9999, which was never sent/],
    ["duplicate", "duplicate-response", /answered request \d+ \(tools\/list\) a second time/],
    ["garbage", "non-json-line", /not JSON/],
  ] as const
) {
  for (const era of ERAS) {
    Deno.test(`${fault} (${era[0]} era): the answer is used and the fault is reported as ${kind}`, async () => {
      await withFault(fault, era, async (client, diagnostics) => {
        assert.deepEqual((await client.listTools()).map((t) => t.name), ["echo"]);
        await client.ping(); // whatever followed the answer has arrived
        const found = diagnostics.find((d) => d.kind === kind);
        assert.ok(found, JSON.stringify(diagnostics));
        assert.match(found.message, message);
      });
    });
  }
}
