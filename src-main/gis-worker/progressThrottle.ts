/** fraction in 0..1 and a short human message. */
export type ProgressFn = (fraction: number, message: string) => void;

/**
 * GDAL reports progress per feature; forwarding each one would flood the IPC channel.
 * Passes a report on when it moved at least `step` or `intervalMs` passed, and always 1.
 */
export function progressThrottle(emit: ProgressFn, step = 0.01, intervalMs = 250): ProgressFn {
  let lastFraction = -1;
  let lastTime = 0;
  let lastMessage = '';
  return (fraction, message) => {
    const now = Date.now();
    const due =
      fraction >= 1 ? lastFraction < 1 : fraction - lastFraction >= step || now - lastTime >= intervalMs || message !== lastMessage;
    if (!due) return;
    lastFraction = fraction;
    lastTime = now;
    lastMessage = message;
    emit(fraction, message);
  };
}
