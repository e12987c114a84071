// Following a config file: Deno.watchFs on its folder (editors often save by writing a new file
// and renaming it over the old one, which a watch on the file itself would lose), debounced so
// that one save, which fires several events, is read once.

import { basename, dirname, resolve } from "node:path";

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
