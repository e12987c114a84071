// A small typed event emitter: listeners are plain functions, errors in one do not stop others.

export class Emitter<Events extends { [K in keyof Events]: unknown }> {
  readonly #listeners = new Map<keyof Events, Set<(payload: never) => void>>();
  readonly #onError: (error: unknown, event: keyof Events) => void;

  constructor(onError: (error: unknown, event: keyof Events) => void) {
    this.#onError = onError;
  }

  on<K extends keyof Events>(event: K, listener: (payload: Events[K]) => void): () => void {
    let set = this.#listeners.get(event);
    if (!set) this.#listeners.set(event, set = new Set());
    set.add(listener as (payload: never) => void);
    return () => set.delete(listener as (payload: never) => void);
  }

  emit<K extends keyof Events>(event: K, payload: Events[K]): void {
    for (const listener of this.#listeners.get(event) ?? []) {
      try {
        (listener as (payload: Events[K]) => void)(payload);
      } catch (error) {
        this.#onError(error, event);
      }
    }
  }
}
