/**
 * The renderer's CSP, for both hosts. MapLibre builds its workers from blob: URLs, hence
 * `worker-src blob:`; styles may be inline because MapLibre sets element styles. The page
 * needs no frames, plugins or forms, so none may load or submit; `connectSrc` adds the host's
 * own channel (the web host's WebSocket, Electron's `mapwright:` scheme).
 */
export function contentSecurityPolicy(connectSrc: string): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    'worker-src blob:',
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    `connect-src 'self' ${connectSrc}`,
    "object-src 'none'",
    "frame-src 'none'",
    "form-action 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}
