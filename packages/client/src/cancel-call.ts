import { Metadata, status as GrpcStatus, type ServiceError } from "@grpc/grpc-js";
import { ToolsRpcError } from "./errors.js";

/** A grpc-js client call, as far as cancelling it goes. */
export interface CancellableCall {
  cancel(): void;
}

/**
 * Cancels a call from a turn of the event loop of its own, and resolves once it has.
 *
 * Node's HTTP/2 session holds back an RST_STREAM(CANCEL) asked for while it is handling received
 * frames (a response's callbacks and the promise continuations they run, such as the code after
 * `await otherCall`) until its next write has completed, and that write carries first whatever was
 * queued meanwhile. So `await quick; controller.abort(); await cancelled; await next` put `next`'s
 * request on the wire ahead of the cancel: the server ran `next` before it heard the cancel, and a
 * command waiting for room could start in the place `next` freed, for a caller who had cancelled it
 * (a shell test failed that way now and then; in `cancel-order.test.ts` it happened every time).
 * Asked for from a turn of its own (`setImmediate`), the frame is queued at once, ahead of any
 * request made later; the call then ends CANCELLED, so a caller waiting for that end makes its next
 * call after the cancel.
 */
export function cancelOnOwnTurn(call: CancellableCall): Promise<void> {
  return new Promise((resolve) => {
    setImmediate(() => {
      call.cancel();
      resolve();
    });
  });
}

/**
 * The error of a call its caller aborted: the one grpc-js gave when it is the cancel's, else (the
 * answer, or another status, came in before the cancel went out) the same CANCELLED grpc-js gives.
 * Once the caller has aborted, what it gets is the cancel, as when the cancel was made at once.
 */
export function abortedCallError(rpc: string, error: ServiceError | null | undefined): ToolsRpcError {
  if (error?.code === GrpcStatus.CANCELLED) return new ToolsRpcError(rpc, error);
  const details = "Cancelled on client";
  return new ToolsRpcError(rpc, Object.assign(new Error(details), { code: GrpcStatus.CANCELLED, details, metadata: new Metadata() }));
}
