// What the client's tests share: the text of a tool result, and the tools the everything.ts fake
// serves, in the order it lists them.

/** The text of a tool result: its text content, joined. */
export function textOf(
  result: { content: { type: string; text?: string }[] },
): string {
  return result.content.map((c) => c.text ?? "").join("");
}

/** The tools of testdata/servers/everything.ts, in the order it lists them. */
export const TOOL_NAMES: string[] = [
  "echo",
  "add",
  "bad_structured",
  "slow",
  "hang",
  "fail",
  "error",
  "sample",
  "elicit",
  "elicit_url",
  "roots",
  "ping_client",
  "log",
  "notify_changes",
  "update_resource",
  "whoami",
  "env",
  "cwd",
  "long_task",
];
