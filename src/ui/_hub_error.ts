// The one error the page's API shows as is: what was wrong with the page's request, and the
// HTTP status that says so.

/** An error the page shows as is: what was wrong with its request. */
export class HubError extends Error {
  /** The HTTP status of the answer (400 unless said otherwise). */
  readonly status: number;

  constructor(message: string, status = 400) {
    super(message);
    this.name = "HubError";
    this.status = status;
  }
}
