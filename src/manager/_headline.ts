// An error's headline: what a status line or a refused call repeats of a server's last error.

/** The first line of an error's message, without the stderr lines a crash appends to it. */
export function headline(error: Error): string {
  return (error.message.split("\n")[0] ?? "").replace(/;? last stderr lines:$/, "");
}
