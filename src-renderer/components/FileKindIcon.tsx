/** Small outline icons for the folder browser: drawn, since emoji fonts are not everywhere. */
export function FileKindIcon({ kind }: { kind: 'dir' | 'file' | 'data' | 'recent' }) {
  const path =
    kind === 'dir'
      ? 'M1.5 3.5h4l1.5 1.5h7.5v8h-13z'
      : kind === 'recent'
        ? 'M8 2.5a5.5 5.5 0 1 1 0 11a5.5 5.5 0 0 1 0-11zM8 5v3.2l2.2 1.6'
        : 'M3.5 1.5h6l3 3v10h-9zM9.5 1.5v3h3';
  return (
    <svg className={`file-kind-icon file-kind-icon--${kind}`} width="14" height="14" viewBox="0 0 16 16" aria-hidden="true">
      <path
        d={path}
        fill={kind === 'data' ? 'currentColor' : 'none'}
        fillOpacity={kind === 'data' ? 0.15 : 0}
        stroke="currentColor"
        strokeWidth="1.2"
        strokeLinejoin="round"
      />
    </svg>
  );
}
