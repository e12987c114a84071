// The live channel (Server-Sent Events on /api/events): the hub's events keep the server list, the
// open view, logs, wire logs, progress and the servers' pending requests current as they happen.

import { api } from "./api.js";
import { pushAuth } from "./auth.js";
import { renderAll, renderMain, renderServerList } from "./layout.js";
import { pushLog } from "./logs.js";
import { onResourceUpdated } from "./resources.js";
import { current, state } from "./state.js";
import { onProgress } from "./tools.js";
import { closeDialog, showNextRequest } from "./user_requests.js";
import { $, toast } from "./widgets.js";
import { pushWire } from "./wire.js";

/** Opens the live channel; the browser reconnects it by itself when it drops. */
export function connectLive() {
  const events = new EventSource("/api/events");
  events.onopen = () => setLive(true);
  events.onerror = () => setLive(false);
  events.onmessage = (message) => {
    let event;
    try {
      event = JSON.parse(message.data);
    } catch {
      return;
    }
    onEvent(event);
  };
}

function setLive(live) {
  state.live = live;
  const badge = $("live");
  badge.textContent = live ? "live" : "reconnecting…";
  badge.className = live ? "live on" : "live";
}

function onEvent(event) {
  switch (event.type) {
    case "hello":
      state.servers = event.servers;
      state.pending = new Map(event.pending.map((request) => [request.id, request]));
      for (const server of state.servers) void loadWire(server.name);
      if (state.selected === undefined && state.servers.length > 0) {
        state.selected = state.servers[0].name;
      }
      renderAll();
      showNextRequest();
      break;
    case "servers": {
      const before = current();
      state.servers = event.servers;
      renderServerList();
      const after = current();
      // The page is rebuilt when the chosen server's connection changed, not on every fault.
      if (before?.status !== after?.status || state.tab === "overview") renderMain();
      break;
    }
    case "wire":
      pushWire(event.server, event.entry);
      break;
    case "log":
    case "stderr":
      pushLog(event.server, event);
      break;
    case "changed":
      toast(`${event.server}: the ${event.list} list changed`);
      if (event.server === state.selected && state.tab === event.list) renderMain();
      break;
    case "updated":
      toast(`${event.server}: ${event.uri} was updated`);
      onResourceUpdated(event.server, event.uri);
      break;
    case "progress":
      onProgress(event);
      break;
    case "request":
      state.pending.set(event.request.id, event.request);
      showNextRequest();
      break;
    case "request-done":
      state.pending.delete(event.id);
      if ($("dialog").dataset.request === event.id) closeDialog();
      showNextRequest();
      break;
    case "auth":
      pushAuth(event.server, event.step);
      break;
  }
}

async function loadWire(server) {
  try {
    state.wire.set(server, await api("wire", { server }));
    if (server === state.selected && state.tab === "wire") renderMain();
  } catch { /* the server went away meanwhile */ }
}
