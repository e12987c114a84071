// What the page knows, shared by all its parts: the servers and the chosen one, the open tab, the
// servers' requests waiting for the user, each server's wire log, logs and login steps, the
// recordings opened, the resources subscribed to, the wire log's filter and the live channel's
// state. Every module reads and changes this one object.

/** The page's state. */
export const state = {
  servers: [],
  selected: undefined,
  tab: "overview",
  pending: new Map(),
  wire: new Map(),
  logs: new Map(),
  auth: new Map(),
  recordings: [],
  subscriptions: new Map(),
  wireFilter: { text: "", dir: "all" },
  live: false,
};

/** The chosen server, if a server (not a recording) is chosen. */
export function current() {
  return state.servers.find((server) => server.name === state.selected);
}

/** The chosen recording, if a recording is chosen. */
export function recording() {
  const match = /^recording:(\d+)$/.exec(state.selected ?? "");
  return match ? state.recordings[Number(match[1])] : undefined;
}
