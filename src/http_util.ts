// HTTP helpers that the transports, OAuth and the server share: a body read that stops at a
// limit, and the WWW-Authenticate parser.

import { type AuthChallenge, ProtocolError } from "./errors.ts";
import { formatBytes } from "./transport/framing.ts";

/**
 * Parses a `WWW-Authenticate` header into challenges (RFC 9110 section 11.6.1). No npm package we
 * trust exposes this; oauth4webapi parses challenges only inside its own response handling.
 */
export function parseChallenges(header: string | null): AuthChallenge[] {
  if (!header) return [];
  const challenges: AuthChallenge[] = [];
  const pattern = /\s*,?\s*([!#$%&'*+\-.^_`|~0-9A-Za-z]+)(?:\s*=\s*("(?:[^"\\]|\\.)*"|[^\s,]+))?/gy;
  let current: AuthChallenge | undefined;
  let match: RegExpExecArray | null;
  while ((match = pattern.exec(header)) !== null) {
    const [, name, rawValue] = match as unknown as [string, string, string | undefined];
    if (rawValue === undefined) {
      current = { scheme: name.toLowerCase(), params: {} };
      challenges.push(current);
      // a token68 may follow the scheme; it carries no parameters we use
      const token68 = /\s+[A-Za-z0-9\-._~+/]+=*(?=\s*(,|$))/y;
      token68.lastIndex = pattern.lastIndex;
      if (token68.exec(header)) pattern.lastIndex = token68.lastIndex;
      continue;
    }
    const value = rawValue.startsWith('"')
      ? rawValue.slice(1, -1).replace(/\\(.)/g, "$1")
      : rawValue;
    if (current) current.params[name.toLowerCase()] = value;
  }
  return challenges;
}

/**
 * Reads at most `limit` bytes of a body as text; more is an error (by default a
 * {@link ProtocolError} naming `maxMessageBytes`) and the rest is not read.
 */
export async function readLimited(
  body: ReadableStream<Uint8Array> | null,
  limit: number,
  tooLarge: () => Error = () =>
    new ProtocolError(
      `HTTP response body exceeds the ${formatBytes(limit)} limit (maxMessageBytes)`,
    ),
): Promise<string> {
  if (!body) return "";
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    while (true) {
      const { value, done } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > limit) {
        await reader.cancel();
        throw tooLarge();
      }
      chunks.push(value);
    }
  } finally {
    reader.releaseLock();
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return new TextDecoder().decode(bytes);
}
