/**
 * The sender check of every `ipcMain.handle` (ipcRouter.ts), apart so it is tested without
 * Electron: a call is answered only when its frame still exists and is trusted (the app's own
 * page); anything else is refused before the payload is looked at.
 */

/** What the check needs of an IpcMainInvokeEvent. */
export interface IpcSenderEvent<F> {
  /** Null when the frame navigated away or was destroyed meanwhile. */
  readonly senderFrame: F | null;
}

export function guardIpcHandler<F, R>(
  name: string,
  isTrustedSender: (frame: F) => boolean,
  handle: (payload: unknown) => R,
): (event: IpcSenderEvent<F>, payload: unknown) => R {
  return (event, payload) => {
    const frame = event.senderFrame;
    if (!frame || !isTrustedSender(frame)) throw new Error(`${name}: refused, the sender is not the app`);
    return handle(payload);
  };
}
