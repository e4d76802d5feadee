import type { MeasureMode } from '../store/measureStore.js';
import { i18n } from '../i18n/i18n.js';
import { pathLength, polygonArea, type LonLat } from './measureGeodesic.js';

/**
 * How the measure tool writes lengths and areas: metres up to a kilometre, then kilometres;
 * square metres up to a hectare, hectares up to a square kilometre, then square kilometres.
 * Digits shrink as the number grows so a reading stays about five significant figures. A
 * fixed locale keeps the text the same on every machine (tests read the raw numbers from
 * `data-metres` / `data-square-metres` anyway).
 */

const number = (value: number, digits: number) =>
  value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

/** Fraction digits for a value in its unit: 3 below 10, 2 below 100, 1 below 1000, else 0. */
const digitsFor = (value: number) => (value < 10 ? 3 : value < 100 ? 2 : value < 1000 ? 1 : 0);

export function formatDistance(metres: number): string {
  if (metres < 1000) return `${number(metres, metres < 100 ? 2 : 1)} m`;
  const km = metres / 1000;
  return `${number(km, digitsFor(km))} km`;
}

export function formatArea(squareMetres: number): string {
  if (squareMetres < 10_000) return `${number(squareMetres, squareMetres < 100 ? 2 : 1)} m²`;
  if (squareMetres < 1_000_000) {
    const ha = squareMetres / 10_000;
    return `${number(ha, digitsFor(ha))} ha`;
  }
  const km2 = squareMetres / 1_000_000;
  return `${number(km2, digitsFor(km2))} km²`;
}

/**
 * A measurement's reading: the path's length (distance) or the enclosed area (area, with its
 * perimeter in the text), as a raw number and as text.
 */
export function measureReading(mode: MeasureMode, points: readonly LonLat[]): { value: number; text: string } {
  if (mode === 'distance') {
    const metres = pathLength(points);
    return { value: metres, text: formatDistance(metres) };
  }
  const { area, perimeter } = polygonArea(points);
  return {
    value: area,
    text:
      points.length >= 3
        ? i18n.t('map:areaWithPerimeter', { area: formatArea(area), perimeter: formatDistance(perimeter) })
        : formatArea(area),
  };
}
