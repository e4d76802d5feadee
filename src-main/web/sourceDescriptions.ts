import { originOfUrl } from '../../src-shared/security/sourceClass.js';

/**
 * Network map sources (issue #13): what the person or the model names, checked, and what GDAL
 * is given to read it. Tiled services (XYZ/TMS, WMS, WMTS) become a small GDAL service
 * description (an XML file in the project's outputs folder) that the worker opens like any
 * raster; cloud-optimised GeoTIFFs and FlatGeobuf files are read in place through `/vsicurl/`
 * (HTTP range requests). Every request GDAL makes still goes through the egress gate.
 */
export const WEB_SOURCE_KINDS = ['xyz', 'tms', 'wms', 'wmts', 'cog', 'fgb'] as const;
export type WebSourceKind = (typeof WEB_SOURCE_KINDS)[number];

/** Tile templates may name these and nothing else. */
const TILE_PLACEHOLDERS = ['{z}', '{x}', '{y}'] as const;
const TILED: ReadonlySet<WebSourceKind> = new Set(['xyz', 'tms']);

/** The problem with `url` for `kind`, in words the model can act on, or null when it is fine. */
export function webSourceUrlProblem(kind: WebSourceKind, url: string): string | null {
  if (url.length > 2048) return 'the URL is longer than 2048 characters';
  // eslint-disable-next-line no-control-regex -- the point is to refuse control characters
  if (/[\s\0-\x1f\x7f\\]/.test(url)) return 'the URL contains spaces, control characters or backslashes';
  if (url.includes('$')) return "the URL contains '$', which GDAL would read as its own placeholder";
  let concrete = url;
  if (TILED.has(kind)) {
    for (const p of TILE_PLACEHOLDERS) {
      if (!url.includes(p)) return `an ${kind.toUpperCase()} template needs the placeholders {z}, {x} and {y}; ${p} is missing`;
      concrete = concrete.split(p).join('0');
    }
  }
  const other = /[{}]/.exec(concrete);
  if (other)
    return TILED.has(kind)
      ? 'only the placeholders {z}, {x} and {y} are accepted in a tile template (no {s}, {-y}, {quadkey}…)'
      : `a ${kind.toUpperCase()} URL takes no placeholders; '{' and '}' are for XYZ/TMS templates`;
  let parsed: URL;
  try {
    parsed = new URL(concrete);
  } catch {
    return 'it is not a valid absolute URL';
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    return `only http:// and https:// URLs are accepted, not ${parsed.protocol}//`;
  if (parsed.username || parsed.password) return 'a URL may not carry a user name or password';
  if (!parsed.hostname) return 'the URL names no host';
  if (TILED.has(kind) && parsed.host !== new URL(url.split('{').join('0').split('}').join('')).host)
    return 'placeholders may not be part of the host';
  if (parsed.hash) return 'the URL may not have a #fragment';
  return null;
}

/** The origin (`scheme://host:port`) a web source reaches; the URL must be valid. */
export function webSourceOrigin(kind: WebSourceKind, url: string): string {
  const concrete = TILED.has(kind) ? TILE_PLACEHOLDERS.reduce((u, p) => u.split(p).join('0'), url) : url;
  return originOfUrl(new URL(concrete));
}

/** Web Mercator's square world, in metres. */
const WORLD = 20037508.342789244;

/** `/vsicurl/` for files read in place; null for services that need a description file. */
export function vsicurlPath(kind: WebSourceKind, url: string): string | null {
  return kind === 'cog' || kind === 'fgb' ? `/vsicurl/${url}` : null;
}

/**
 * The GDAL description of a tiled service (GDAL's WMS driver for XYZ/TMS and WMS, its WMTS
 * driver for WMTS). No disk cache (GDAL's would sit outside the app's cache folder), 204/404
 * answered as empty tiles, no more than four connections to the server.
 */
export function serviceDescription(kind: 'xyz' | 'tms' | 'wms' | 'wmts', url: string, layer?: string, maxZoom = 19): string {
  if (kind === 'wmts') {
    return [
      '<GDAL_WMTS>',
      `  <GetCapabilitiesUrl>${xml(url)}</GetCapabilitiesUrl>`,
      `  <Layer>${xml(layer ?? '')}</Layer>`,
      '  <ZeroBlockHttpCodes>204,404</ZeroBlockHttpCodes>',
      '</GDAL_WMTS>',
      '',
    ].join('\n');
  }
  const size = 256 * 2 ** maxZoom;
  const window = (extra: string[]) => [
    '  <DataWindow>',
    `    <UpperLeftX>${-WORLD}</UpperLeftX>`,
    `    <UpperLeftY>${WORLD}</UpperLeftY>`,
    `    <LowerRightX>${WORLD}</LowerRightX>`,
    `    <LowerRightY>${-WORLD}</LowerRightY>`,
    ...extra,
    '  </DataWindow>',
  ];
  const service =
    kind === 'wms'
      ? [
          '  <Service name="WMS">',
          '    <Version>1.1.1</Version>',
          `    <ServerUrl>${xml(url.includes('?') ? url : `${url}?`)}</ServerUrl>`,
          '    <SRS>EPSG:3857</SRS>',
          '    <ImageFormat>image/png</ImageFormat>',
          `    <Layers>${xml(layer ?? '')}</Layers>`,
          '    <Styles></Styles>',
          '    <Transparent>TRUE</Transparent>',
          '  </Service>',
          ...window([`    <SizeX>${size}</SizeX>`, `    <SizeY>${size}</SizeY>`]),
        ]
      : [
          '  <Service name="TMS">',
          `    <ServerUrl>${xml(TILE_PLACEHOLDERS.reduce((u, p) => u.split(p).join(`$${p}`), url))}</ServerUrl>`,
          '  </Service>',
          ...window([
            `    <TileLevel>${maxZoom}</TileLevel>`,
            '    <TileCountX>1</TileCountX>',
            '    <TileCountY>1</TileCountY>',
            `    <YOrigin>${kind === 'xyz' ? 'top' : 'bottom'}</YOrigin>`,
          ]),
        ];
  return [
    '<GDAL_WMS>',
    ...service,
    '  <Projection>EPSG:3857</Projection>',
    '  <BlockSizeX>256</BlockSizeX>',
    '  <BlockSizeY>256</BlockSizeY>',
    '  <BandsCount>3</BandsCount>',
    `  <OverviewCount>${Math.max(0, maxZoom)}</OverviewCount>`,
    '  <MaxConnections>4</MaxConnections>',
    '  <ZeroBlockHttpCodes>204,404</ZeroBlockHttpCodes>',
    '  <UserAgent>Mapwright</UserAgent>',
    '</GDAL_WMS>',
    '',
  ].join('\n');
}

function xml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');
}
