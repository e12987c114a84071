// What the page's step-by-step login shows: each request and answer of discovery, registration
// and the token exchange, with tokens, codes, secrets and verifiers replaced by `***`.

/** One step of a login shown on the page: a request and its answer, or a note. */
export interface AuthStep {
  phase: "request" | "response" | "authorize" | "note" | "done" | "failed";
  label: string;
  detail?: unknown;
}

/** A fetch that reports each request and answer of a login, secrets redacted. */
export function tracedFetch(
  step: (step: AuthStep) => void,
  redact: (text: string) => string,
): (input: RequestInfo | URL, init?: RequestInit) => Promise<Response> {
  return async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    const body = request.body ? await request.clone().text() : undefined;
    step({
      phase: "request",
      label: `${request.method} ${redact(request.url)}`,
      detail: {
        headers: redactedHeaders(request.headers),
        ...(body !== undefined ? { body: hideSecrets(body) } : {}),
      },
    });
    const response = await fetch(request);
    const text = await response.clone().text().catch(() => "");
    step({
      phase: "response",
      label: `${response.status} ${response.statusText} ← ${redact(request.url)}`,
      detail: { headers: redactedHeaders(response.headers), body: hideSecrets(text) },
    });
    return response;
  };
}

const SECRET_HEADERS = new Set(["authorization", "dpop", "cookie", "set-cookie"]);

function redactedHeaders(headers: Headers): Record<string, string> {
  const shown: Record<string, string> = {};
  for (const [key, value] of headers) shown[key] = SECRET_HEADERS.has(key) ? "***" : value;
  return shown;
}

/** Tokens, codes, secrets and verifiers in a form or JSON body, replaced with `***`. */
function hideSecrets(body: string): string {
  const keys = "access_token|refresh_token|id_token|client_secret|code|code_verifier|assertion";
  return body
    .replace(new RegExp(`("(?:${keys})"\\s*:\\s*)"[^"]*"`, "g"), '$1"***"')
    .replace(new RegExp(`((?:^|&)(?:${keys})=)[^&]*`, "g"), "$1***");
}
