// setServers: what runs compared with what is configured, and the changes applied at once.

import type { ServerConfig } from "../config/config.ts";
import type { ManagedServer } from "./_server.ts";
import { connectionKey } from "./_transport.ts";
import type { SetServersResult } from "./types.ts";

/** How servers are started and stopped. */
export interface ServerControl {
  connect(name: string, config: ServerConfig): Promise<unknown>;
  disconnect(name: string): Promise<void>;
}

/**
 * Makes `running` match `configs` through `control`, concurrently: unchanged servers are left
 * alone, changed connections restart, policy-only changes apply in place. Failures are
 * collected in the result, never thrown.
 */
export async function applyServers(
  running: ReadonlyMap<string, ManagedServer>,
  configs: Readonly<Record<string, ServerConfig>>,
  control: ServerControl,
): Promise<SetServersResult> {
  const result: SetServersResult = {
    started: [],
    restarted: [],
    stopped: [],
    updated: [],
    unchanged: [],
    failed: {},
  };
  const jobs: Promise<void>[] = [];
  const attempt = (name: string, job: () => Promise<unknown>) =>
    jobs.push(job().then(() => {}, (error) => void (result.failed[name] = error as Error)));
  for (const name of running.keys()) {
    if (Object.hasOwn(configs, name)) continue;
    result.stopped.push(name);
    attempt(name, () => control.disconnect(name));
  }
  for (const [name, config] of Object.entries(configs)) {
    const server = running.get(name);
    if (!server) {
      result.started.push(name);
      attempt(name, () => control.connect(name, config));
    } else if (connectionKey(server.config) !== connectionKey(config)) {
      result.restarted.push(name);
      attempt(name, () => control.connect(name, config));
    } else if (JSON.stringify(server.config) !== JSON.stringify(config)) {
      result.updated.push(name);
      attempt(name, () => server.update(config));
    } else {
      result.unchanged.push(name);
    }
  }
  await Promise.all(jobs);
  return result;
}
