import type { CSSProperties } from 'react';
import type { LegendEntry, LegendSwatch, LegendSymbol } from '../../src-shared/style/legend.js';
import { legendNoteText } from '../map/legendNoteText.js';

function swatchStyle(symbol: LegendSymbol, item: LegendSwatch): CSSProperties {
  if (symbol === 'line') return { background: item.colour, ...(item.size ? { height: Math.max(2, Math.min(10, item.size)) } : {}) };
  const size = symbol === 'point' && item.size ? Math.max(6, Math.min(18, item.size * 2)) : undefined;
  return {
    background: item.colour,
    border: `1px solid ${item.stroke ?? 'rgba(0,0,0,0.25)'}`,
    ...(size ? { width: size, height: size } : symbol === 'point' ? { width: 12, height: 12 } : {}),
  };
}

/** One part of a layer's legend: swatches, a ramp bar, a bivariate grid, RGB channels or a note. */
export function MapLegendEntry({ entry }: { entry: LegendEntry }) {
  switch (entry.kind) {
    case 'swatches':
      return (
        <>
          {entry.title && <div className="map-legend__title">{entry.title}</div>}
          <ul className="map-legend__items">
            {entry.items.map((item, i) => (
              <li key={i} className="map-legend__item" data-testid="legend-swatch" data-colour={item.colour}>
                <span className={`map-legend__swatch map-legend__swatch--${entry.symbol}`} style={swatchStyle(entry.symbol, item)} />
                <span>{item.label}</span>
              </li>
            ))}
          </ul>
        </>
      );
    case 'ramp':
      return (
        <>
          {entry.title && <div className="map-legend__title">{entry.title}</div>}
          <div
            className="map-legend__ramp"
            data-testid="legend-ramp"
            style={{ background: `linear-gradient(to right, ${entry.colours.join(', ')})` }}
          />
          <div className="map-legend__ramp-labels">
            <span>{entry.low}</span>
            <span>{entry.high}</span>
          </div>
        </>
      );
    case 'grid':
      return (
        <>
          <div className="map-legend__grid" data-testid="legend-grid">
            {/* Rows top to bottom are high to low y; columns low to high x. */}
            {[2, 1, 0].flatMap((y) => [0, 1, 2].map((x) => <span key={`${x}-${y}`} style={{ background: entry.palette[x + 3 * y] }} />))}
          </div>
          <div className="map-legend__title">↑ {entry.yLabel}</div>
          <div className="map-legend__title">→ {entry.xLabel}</div>
        </>
      );
    case 'channels':
      return (
        <ul className="map-legend__items">
          {entry.channels.map((c) => (
            <li key={c.label} className="map-legend__item">
              <span className="map-legend__swatch" style={{ background: c.colour }} />
              <span>{c.label}</span>
            </li>
          ))}
        </ul>
      );
    case 'note':
      return <div className="map-legend__note">{legendNoteText(entry)}</div>;
  }
}
