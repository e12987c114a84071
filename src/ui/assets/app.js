// The inspector's page: servers on the left; for the chosen one, its overview, tools, resources,
// prompts, logs, wire log and OAuth state. One live channel (/api/events) keeps it current; the
// server's requests (sampling, elicitation, roots) open as dialogs. Built with the DOM API only:
// no markup is ever parsed from a string.
//
// This module is the entry point index.html loads: it wires the page's fixed controls (theme,
// keyboard, the dialog's Escape, buttons) and starts. The frame is layout.js, each tab a module of
// its own, the live channel live.js, and what they share state.js.

import { addServerDialog } from "./add_server.js";
import { api } from "./api.js";
import { renderAll } from "./layout.js";
import { connectLive } from "./live.js";
import { state } from "./state.js";
import { closeDialog, showNextRequest } from "./user_requests.js";
import { $ } from "./widgets.js";
import { importRecording } from "./wire.js";

function applyTheme(theme) {
  if (theme) document.documentElement.dataset.theme = theme;
}

function toggleTheme() {
  const dark = document.documentElement.dataset.theme
    ? document.documentElement.dataset.theme === "dark"
    : matchMedia("(prefers-color-scheme: dark)").matches;
  const theme = dark ? "light" : "dark";
  localStorage.setItem("mcp-inspect-theme", theme);
  applyTheme(theme);
}

function typing(target) {
  return target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement ||
    target instanceof HTMLSelectElement || target?.isContentEditable;
}

document.addEventListener("keydown", (event) => {
  if (event.altKey && /^[1-7]$/.test(event.key)) {
    const buttons = document.querySelectorAll(".tabs [role=tab]");
    buttons[Number(event.key) - 1]?.click();
    document.querySelector(".tabs [aria-selected=true]")?.focus();
    event.preventDefault();
    return;
  }
  if (typing(event.target) || event.ctrlKey || event.metaKey || event.altKey) return;
  if (event.key === "/") {
    const filter = document.querySelector("#main .filter");
    if (filter) {
      event.preventDefault();
      filter.focus();
    }
  } else if (event.key === "t") {
    toggleTheme();
  }
});

$("dialog").addEventListener("cancel", (event) => {
  // Escape on a server's request declines it rather than leaving it waiting unseen.
  const id = $("dialog").dataset.request;
  if (id === undefined) return;
  event.preventDefault();
  const request = state.pending.get(id);
  const body = request?.kind === "elicitation"
    ? { result: { action: "cancel" } }
    : { error: "The user dismissed the request" };
  api("answer", { id, ...body }).catch(() => {}).finally(() => {
    state.pending.delete(id);
    closeDialog();
    showNextRequest();
  });
});

$("theme").addEventListener("click", toggleTheme);
$("add-server").addEventListener("click", addServerDialog);
$("import").addEventListener("change", (event) => {
  const file = event.target.files?.[0];
  if (file) void importRecording(file);
  event.target.value = "";
});

applyTheme(localStorage.getItem("mcp-inspect-theme"));
renderAll();
connectLive();
