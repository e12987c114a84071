// Following a config file: Deno.watchFs on its folder (editors often save by writing a new file
// and renaming it over the old one, which a watch on the file itself would lose), debounced so
// that one save, which fires several events, is read once.

import { basename, dirname, resolve } from "node:path";
import { loadConfig, type ServerConfig } from "../config/config.ts";
import type { ConfigWatcher, ManagerEvents, SetServersResult, WatchOptions } from "./types.ts";

export interface FileWatch {
  close(): Promise<void>;
}

/** Calls `onChange` once per burst of changes to `file`, `debounceMs` after the last event. */
export function watchFile(file: string, debounceMs: number, onChange: () => void): FileWatch {
  const target = resolve(file);
  const folder = dirname(target);
  const name = basename(target);
  const watcher = Deno.watchFs(folder, { recursive: false });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const loop = (async () => {
    try {
      for await (const event of watcher) {
        if (event.kind === "access") continue;
        if (!event.paths.some((path) => path === target || basename(path) === name)) continue;
        clearTimeout(timer);
        timer = setTimeout(() => {
          timer = undefined;
          onChange();
        }, debounceMs);
      }
    } catch {
      // the watcher was closed
    }
  })();
  let closing: Promise<void> | undefined;
  return {
    close(): Promise<void> {
      closing ??= (async () => {
        clearTimeout(timer);
        try {
          watcher.close();
        } catch {
          // already closed
        }
        await loop;
      })();
      return closing;
    },
  };
}

/** What following a config file does to its manager. */
export interface ConfigTarget {
  apply(servers: Record<string, ServerConfig>): Promise<SetServersResult>;
  emit<E extends "configError" | "configWarning" | "configApplied">(
    event: E,
    payload: ManagerEvents[E],
  ): void;
  closed(): void;
}

/**
 * Loads `file`, applies it, and applies it again on every change; a file that fails to load
 * later is reported and changes nothing. Rejects when the first load fails.
 */
export async function followConfig(
  file: string,
  options: WatchOptions,
  target: ConfigTarget,
): Promise<ConfigWatcher> {
  const { debounceMs = 200, ...loadOptions } = options;
  const apply = async () => {
    const loaded = await loadConfig(file, loadOptions);
    for (const issue of loaded.issues) target.emit("configError", issue);
    for (const warning of loaded.warnings) target.emit("configWarning", warning);
    const result = await target.apply(loaded.servers);
    target.emit("configApplied", { file, result });
  };
  await apply();
  let queue: Promise<void> = Promise.resolve();
  const watch = watchFile(file, debounceMs, () => {
    queue = queue.then(apply).catch((error) => target.emit("configError", error));
  });
  const watcher: ConfigWatcher = {
    file,
    close: async () => {
      target.closed();
      await watch.close();
      await queue;
    },
    [Symbol.asyncDispose]: () => watcher.close(),
  };
  return watcher;
}
