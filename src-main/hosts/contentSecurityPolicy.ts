/**
 * The renderer's CSP, for both hosts. MapLibre builds its workers from blob: URLs, hence
 * `worker-src blob:`; styles may be inline because MapLibre sets element styles.
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
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}
