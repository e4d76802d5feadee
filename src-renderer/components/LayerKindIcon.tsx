import type { Layer } from '../../src-shared/domain/layer.js';
import { geometryKindOf } from '../../src-shared/style/compileLayerStyle.js';

/** A 16 px glyph for the layer's kind, drawn in the layer's own colour for vectors. */
export function LayerKindIcon({ layer }: { layer: Layer }) {
  const colour = layer.style.type === 'simple' ? layer.style.fill : '#888888';
  const stroke = layer.style.type === 'simple' ? layer.style.stroke : '#555555';
  const kind = layer.kind === 'raster' || layer.kind === 'table' ? layer.kind : geometryKindOf(layer.info.geometryType);
  return (
    <svg className="layer-kind-icon" width="16" height="16" viewBox="0 0 16 16" aria-label={kind} role="img">
      {kind === 'raster' && (
        <g stroke="#666" strokeWidth="0.8">
          <rect x="1.5" y="1.5" width="6.5" height="6.5" fill="#bbb" />
          <rect x="8" y="1.5" width="6.5" height="6.5" fill="#777" />
          <rect x="1.5" y="8" width="6.5" height="6.5" fill="#999" />
          <rect x="8" y="8" width="6.5" height="6.5" fill="#ddd" />
        </g>
      )}
      {kind === 'table' && (
        <g stroke="#666" strokeWidth="0.8" fill="none">
          <rect x="1.5" y="2.5" width="13" height="11" />
          <path d="M1.5 6 H14.5 M1.5 9.5 H14.5 M6 2.5 V13.5" />
        </g>
      )}
      {kind === 'polygon' && <path d="M3 4 L11 2 L14 9 L8 14 L2 11 Z" fill={colour} stroke={stroke} strokeWidth="1" />}
      {kind === 'line' && (
        <path d="M1.5 12 L6 5 L10 10 L14.5 3" fill="none" stroke={colour} strokeWidth="2.2" strokeLinejoin="round" strokeLinecap="round" />
      )}
      {kind === 'point' && <circle cx="8" cy="8" r="4.5" fill={colour} stroke={stroke} strokeWidth="1" />}
      {kind === 'mixed' && (
        <g>
          <path d="M2 9 L7 7 L9 13 L3 14 Z" fill={colour} stroke={stroke} strokeWidth="0.8" />
          <path d="M8 6 L14 2" stroke={colour} strokeWidth="2" strokeLinecap="round" />
          <circle cx="12" cy="11" r="2.5" fill={colour} stroke={stroke} strokeWidth="0.8" />
        </g>
      )}
    </svg>
  );
}
