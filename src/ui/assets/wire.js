// The wire log: every JSON-RPC message to and from a server, with how long each answer took,
// filtered by text and direction, and exported as a recording; and recordings opened from a file,
// shown the same way.

import { h, jsonBlock, replace } from "./dom.js";
import { api, describeError } from "./api.js";
import { select } from "./redraw.js";
import { state } from "./state.js";
import { toast } from "./widgets.js";

const MAX_WIRE_ROWS = 1000;

/** Keeps a message of a server's wire log, and shows it if that log is open. */
export function pushWire(server, entry) {
  const wire = state.wire.get(server) ?? [];
  state.wire.set(server, wire);
  wire.push(entry);
  if (wire.length > 5000) wire.shift();
  if (server === state.selected && state.tab === "wire") {
    const table = document.querySelector("#wire-rows");
    if (table && matches(entry)) table.append(...wireRows(entry, timings(wire)));
  }
}

function matches(entry) {
  const { text, dir } = state.wireFilter;
  if (dir !== "all" && entry.dir !== dir) return false;
  return text === "" || JSON.stringify(entry.msg).toLowerCase().includes(text);
}

/** For each answer, how long after its request it came (both ways: the server asks too). */
function timings(entries) {
  const asked = new Map();
  const took = new Map();
  for (const entry of entries) {
    const { msg } = entry;
    if (msg.method !== undefined && msg.id !== undefined) {
      asked.set(`${entry.dir}:${JSON.stringify(msg.id)}`, entry);
    } else if (msg.method === undefined && msg.id !== undefined) {
      const request = asked.get(
        `${entry.dir === "recv" ? "send" : "recv"}:${JSON.stringify(msg.id)}`,
      );
      if (request) took.set(entry, { ms: entry.t - request.t, method: request.msg.method });
    }
  }
  return took;
}

/**
 * A time of the wire log as the table shows it: whole milliseconds. The log keeps the recorder's
 * microseconds (an export is a recording), but a column of them is noise to read, and a
 * difference of two of them can carry float dust (0.30000000000000004).
 */
function milliseconds(ms) {
  return `${Math.round(ms)} ms`;
}

function describeMessage(msg) {
  if (msg.method !== undefined) return msg.method;
  if (msg.error !== undefined) return `error ${msg.error.code ?? ""}: ${msg.error.message ?? ""}`;
  return "result";
}

function wireRows(entry, took) {
  const time = took.get(entry);
  const details = h(
    "tr",
    { class: "wire-detail", hidden: true },
    h("td", { colspan: "5" }, jsonBlock(entry.msg)),
  );
  const row = h(
    "tr",
    {
      class: `wire ${entry.dir}${entry.msg.error ? " error" : ""}`,
      tabindex: "0",
      onclick: () => details.hidden = !details.hidden,
      onkeydown: (event) => {
        if (event.key === "Enter" || event.key === " ") {
          event.preventDefault();
          details.hidden = !details.hidden;
        }
      },
    },
    h("td", { class: "time" }, milliseconds(entry.t)),
    h("td", {
      class: "dir",
      title: entry.dir === "send" ? "sent to the server" : "received from the server",
    }, entry.dir === "send" ? "→" : "←"),
    h("td", { class: "id" }, entry.msg.id === undefined ? "" : JSON.stringify(entry.msg.id)),
    h(
      "td",
      { class: "what" },
      describeMessage(entry.msg),
      time?.method ? h("span", { class: "muted" }, ` (${time.method})`) : null,
    ),
    h("td", { class: "took" }, time ? milliseconds(time.ms) : ""),
  );
  return [row, details];
}

/** A wire log as a table; `server` is undefined for a recording, which has nothing to export. */
export function wireView(entries, server) {
  const took = timings(entries);
  const rows = h("tbody", { id: "wire-rows" });
  const draw = () => {
    const shown = entries.filter(matches).slice(-MAX_WIRE_ROWS);
    replace(rows, shown.map((entry) => wireRows(entry, took)));
  };
  draw();
  return h(
    "div",
    { class: "wire-view" },
    h(
      "div",
      { class: "actions" },
      h("input", {
        type: "search",
        class: "filter",
        placeholder: "Filter messages (/)",
        "aria-label": "Filter messages",
        value: state.wireFilter.text,
        oninput: (event) => {
          state.wireFilter.text = event.target.value.toLowerCase();
          draw();
        },
      }),
      h(
        "select",
        {
          "aria-label": "Direction",
          onchange: (event) => {
            state.wireFilter.dir = event.target.value;
            draw();
          },
        },
        [["all", "both ways"], ["send", "sent →"], ["recv", "received ←"]].map(([value, label]) =>
          h("option", { value, selected: state.wireFilter.dir === value }, label)
        ),
      ),
      server === undefined ? null : h("button", {
        type: "button",
        id: "export-wire",
        onclick: async () => {
          try {
            download(`${server}.jsonl`, await api("wire/export", { server }));
          } catch (error) {
            toast(describeError(error), "error");
          }
        },
      }, "Export recording"),
      h("span", { class: "muted" }, ` ${entries.length} messages`),
    ),
    h(
      "table",
      { class: "wire-log" },
      h(
        "thead",
        null,
        h(
          "tr",
          null,
          h("th", null, "time"),
          h("th", null, ""),
          h("th", null, "id"),
          h("th", null, "message"),
          h("th", null, "took"),
        ),
      ),
      rows,
    ),
  );
}

function download(name, text) {
  const url = URL.createObjectURL(new Blob([text], { type: "application/jsonl" }));
  const link = h("a", { href: url, download: name, hidden: true });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** What a recording's header says: its server, revision, start and the recorder's version. */
export function recordingHeader(rec) {
  const header = rec.header;
  return h(
    "p",
    { class: "muted" },
    `${header.server} · ${
      header.protocolVersion ?? "no revision"
    } · recorded ${header.started} by mcp-inspect ${header.tool}`,
  );
}

/** Opens a recording (JSON Lines: a header, then `{ t, dir, msg }` a line) and chooses it. */
export async function importRecording(file) {
  const text = await file.text();
  const lines = text.split("\n").filter((line) => line.trim() !== "");
  try {
    const header = JSON.parse(lines[0] ?? "");
    if (header.format !== "mcp-inspect-recording") {
      throw new Error("line 1 is not an mcp-inspect recording header");
    }
    const messages = lines.slice(1).map((line, index) => {
      let entry;
      try {
        entry = JSON.parse(line);
      } catch (error) {
        throw new Error(`line ${index + 2}: ${error.message}`);
      }
      if (
        (entry.dir !== "send" && entry.dir !== "recv") || typeof entry.msg !== "object" ||
        entry.msg === null
      ) {
        throw new Error(`line ${index + 2}: expected { t, dir, msg }`);
      }
      return entry;
    });
    state.recordings.push({ name: file.name, header, messages });
    select(`recording:${state.recordings.length - 1}`);
  } catch (error) {
    toast(`${file.name}: ${error.message}`, "error");
  }
}
