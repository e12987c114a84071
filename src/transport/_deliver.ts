// Handing messages to a transport's reader, straight or through its readable stream.

import type { JsonRpcMessage } from "../jsonrpc.ts";

/**
 * Hands a message to a transport's reader: straight to `onMessage` when it is set and the
 * stream's queue is empty, else onto the queue, so that messages keep their order either way.
 * For a `readable` built with the default high-water mark of one message.
 */
export function deliver(
  controller: ReadableStreamDefaultController<JsonRpcMessage>,
  onMessage: ((message: JsonRpcMessage) => void) | undefined,
  message: JsonRpcMessage,
): boolean {
  if (onMessage !== undefined && controller.desiredSize === 1) {
    onMessage(message);
    return true;
  }
  controller.enqueue(message);
  return false;
}
