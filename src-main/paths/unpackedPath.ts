/**
 * A packaged app's file that asarUnpack keeps outside the archive: the path other programs (a
 * sandboxed child, bubblewrap's bind mounts) can read. Unchanged outside a packaged app.
 */
export function unpackedPath(path: string): string {
  return path.replace(/app\.asar(?=[\\/])/, 'app.asar.unpacked');
}
