/**
 * Whether a process with this pid exists (EPERM: it does, someone else's). Used to tell the
 * leftovers of a killed process (its pid in a folder's name) from those of a live one — by the
 * worker for its overview builds, by main (worker-host/workerSpawn.ts) for worker folders.
 */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
