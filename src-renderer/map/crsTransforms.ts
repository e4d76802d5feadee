import proj4 from 'proj4';

/** lon/lat (EPSG:4326) → the CRS's own x, y. */
export type ToCrs = (lonLat: [number, number]) => [number, number];

/** Asks main for an EPSG code's PROJ string (bridge `crs/definition`). */
export type FetchDefinition = (epsg: number) => Promise<string>;

const identity: ToCrs = (p) => [p[0], p[1]];

/**
 * proj4js converters from WGS 84, one per EPSG code, each definition asked of main once (GDAL
 * holds the CRS database; proj4js knows only a handful of codes). A failed lookup is not
 * kept, so a later hover may try again. Longitude/latitude CRSs keep proj4's lon, lat order,
 * as GDAL's traditional GIS order does.
 */
export class CrsTransforms {
  private readonly converters = new Map<number, Promise<ToCrs>>();

  constructor(private readonly fetchDefinition: FetchDefinition) {}

  get(epsg: number): Promise<ToCrs> {
    if (epsg === 4326) return Promise.resolve(identity);
    let converter = this.converters.get(epsg);
    if (!converter) {
      converter = this.fetchDefinition(epsg).then((definition) => fromDefinition(definition));
      converter.catch(() => this.converters.delete(epsg));
      this.converters.set(epsg, converter);
    }
    return converter;
  }
}

/** A converter from WGS 84 lon/lat to the CRS a PROJ string defines. */
export function fromDefinition(definition: string): ToCrs {
  const converter = proj4('WGS84', definition);
  return (p) => {
    const [x, y] = converter.forward([p[0], p[1]]);
    return [x!, y!];
  };
}
