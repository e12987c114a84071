// The page's JSON API: one operation per `POST /api/<operation>`, with a JSON body, answered with
// `{ result }` or `{ error }`.

/** Runs an operation; rejects with an Error whose `detail` is the answer's `error`. */
export async function api(operation, body = {}) {
  const response = await fetch(`/api/${operation}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  let answer;
  try {
    answer = await response.json();
  } catch {
    answer = { error: { message: `HTTP ${response.status} ${response.statusText}` } };
  }
  if (!response.ok || answer.error) {
    const error = new Error(answer.error?.message ?? `HTTP ${response.status}`);
    error.detail = answer.error;
    throw error;
  }
  return answer.result;
}

/** An error as the page words it: its message, and its code when the error has one. */
export function describeError(error) {
  const detail = error.detail;
  if (detail?.code !== undefined) return `${error.message} (code ${detail.code})`;
  return error.message;
}
