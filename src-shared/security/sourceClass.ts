import { postgisConnectionOf } from '../domain/pgSource.js';
import { parseSource } from '../domain/source.js';

/**
 * What opening a source string would reach, decided once for every tool (DESIGN §5). GDAL
 * accepts a network source wherever it accepts a path — `/vsicurl/…`, `https://…`, `WFS:…`,
 * `PG:…` — so the string, not the tool, decides whether a call is a network call.
 *
 * - `local`: a file or folder on this machine, by absolute path.
 * - `archive`: a local archive read through `/vsizip/`, `/vsigzip/`, `/vsitar/`… (`path` is
 *   the archive's file path with the member after it; its start is what the private-path
 *   check compares).
 * - `network`: anything GDAL would fetch or connect to. `origin` is `scheme://host:port` when
 *   the string names one (what the egress gate lets through once approved); connection
 *   strings of database drivers have none and are refused by the gate's driver list.
 * - `database`: a saved PostGIS connection named by id (`postgis://<id>`, issue 16); main
 *   resolves the id to its server, which is the origin the person approves.
 * - `refused`: forms no tool accepts (inline datasets, GDAL's memory and stdio files,
 *   relative paths); `reason` says why in words the model can act on.
 */
export type SourceClass =
  | { kind: 'local'; path: string }
  | { kind: 'archive'; path: string }
  | { kind: 'network'; origin: string | null; target: string }
  | { kind: 'database'; connectionId: string }
  | { kind: 'refused'; reason: string };

/** GDAL virtual file systems that fetch over the network (curl, cloud object stores, HDFS). */
const NETWORK_VSI =
  /^\/vsi(curl|curl_streaming|s3|s3_streaming|gs|gs_streaming|az|az_streaming|adls|oss|oss_streaming|swift|swift_streaming|hdfs|webhdfs)\//i;
/** Archive and wrapper file systems whose inner path is classified in turn. */
const WRAPPER_VSI = /^\/vsi(zip|gzip|tar|7z|rar|subfile|sparse|cached\?|crypt)\//i;
/** Internal to the worker or to a process's stdio: never a person's data. */
const INTERNAL_VSI = /^\/vsi(mem|stdin|stdout|stdout_redirect)\//i;
const URL_SCHEME = /^([a-z][a-z0-9+.-]*):\/\//i;
/**
 * Driver prefixes whose remainder names a local file (subdatasets: `GPKG:path:table`,
 * `NETCDF:"path":var`, `CSV:path`…). Every other `NAME:` prefix is a connection string or a
 * service (`PG:`, `WFS:`, `WMS:`, `MySQL:`, `ODBC:`, `OAPIF:`, `ESRIJSON:` over a URL…), and is
 * classified as network: fail closed on prefixes nobody listed here.
 */
const FILE_DRIVER_PREFIXES = new Set([
  'GPKG',
  'NETCDF',
  'HDF5',
  'HDF4_SDS',
  'HDF4_EOS',
  'HDF4_GR',
  'GTIFF_DIR',
  'CSV',
  'SQLITE',
  'NITF_IM',
  'RASTERLITE',
  'PDF',
  'JP2OPENJPEG',
]);

export function classifySource(source: string): SourceClass {
  const text = parseSource(source).path.trim();
  if (!text) return { kind: 'refused', reason: 'no path was given' };
  if (/[\0\r\n]/.test(text)) return { kind: 'refused', reason: 'a path cannot contain control characters or line breaks' };
  if (/^[<{[]/.test(text)) {
    return {
      kind: 'refused',
      reason: 'inline datasets (XML or JSON text in place of a path) are not accepted; save the data to a file and give its path',
    };
  }
  if (INTERNAL_VSI.test(text))
    return { kind: 'refused', reason: `${text.split('/')[1]} is internal to GDAL, not a file a person can name` };
  if (NETWORK_VSI.test(text)) return network(text, text.replace(/^\/vsi[a-z0-9_]+\//i, ''));
  const wrapper = WRAPPER_VSI.exec(text);
  if (wrapper) return classifyWrapped(text, wrapper[0]);
  if (/^\/vsi[a-z0-9_?]*\//i.test(text)) return { kind: 'refused', reason: `the GDAL file system ${text.split('/')[1]} is not supported` };

  const connectionId = postgisConnectionOf(text);
  if (connectionId === false)
    return { kind: 'refused', reason: 'a PostGIS source is postgis://<connection id> (lower-case letters, digits, _ and -)' };
  if (connectionId !== null) return { kind: 'database', connectionId };
  const scheme = URL_SCHEME.exec(text);
  if (scheme) {
    if (scheme[1]!.toLowerCase() === 'file')
      return { kind: 'refused', reason: 'file:// URLs are not accepted; give the absolute path of the file' };
    return network(text, text);
  }
  // A Windows UNC path (\\server\share) is a network share; nothing can approve it.
  if (/^\\\\/.test(text)) return { kind: 'network', origin: null, target: text };
  // A Windows drive (C:\…, C:/…) is a path, not a driver prefix.
  if (/^[A-Za-z]:[\\/]/.test(text)) return { kind: 'local', path: text };
  const prefix = /^([A-Za-z][A-Za-z0-9_]*):(.*)$/s.exec(text);
  if (prefix) {
    const name = prefix[1]!.toUpperCase();
    if (!FILE_DRIVER_PREFIXES.has(name)) return network(text, prefix[2]!);
    const inner = innerFileOf(prefix[2]!);
    if (!inner) return { kind: 'refused', reason: `${name}: needs a file path after it` };
    const innerClass = classifySource(inner);
    // A PostGIS table is opened only as itself: a driver prefix around it names no file.
    if (innerClass.kind === 'database') return { kind: 'refused', reason: `${name}: needs a file path after it, not a PostGIS source` };
    return innerClass.kind === 'network' ? network(text, inner) : innerClass;
  }
  if (!isAbsolute(text)) return { kind: 'refused', reason: `'${text}' is not an absolute path; give the full path of the file` };
  return { kind: 'local', path: text };
}

/** `/vsizip//path/a.zip/member`, `/vsizip/{/path/a.zip}/member`, `/vsisubfile/10_20,/path`… */
function classifyWrapped(text: string, prefix: string): SourceClass {
  let rest = text.slice(prefix.length);
  if (/^\/vsisubfile\//i.test(prefix)) rest = rest.replace(/^[^,]*,/, '');
  if (/^\/vsicrypt\//i.test(prefix)) rest = /(?:^|,)file=(.*)$/s.exec(rest)?.[1] ?? '';
  if (rest.startsWith('{')) {
    const close = rest.indexOf('}');
    if (close < 0) return { kind: 'refused', reason: 'an unclosed { in an archive path' };
    rest = rest.slice(1, close) + rest.slice(close + 1);
  }
  const inner = classifySource(rest);
  if (inner.kind === 'network') return network(text, inner.target);
  if (inner.kind === 'refused') return inner;
  if (inner.kind === 'database') return { kind: 'refused', reason: 'a PostGIS connection cannot be inside an archive path' };
  return { kind: 'archive', path: inner.path };
}

/** The file named in a driver prefix's remainder: `"path":var`, `path:table`, or `path`. */
function innerFileOf(rest: string): string | null {
  const quoted = /^"([^"]+)"/.exec(rest);
  if (quoted) return quoted[1]!;
  // GTIFF_DIR:1:path and NITF_IM:0:path put a number first.
  const numbered = /^\d+:(.+)$/s.exec(rest);
  if (numbered) return numbered[1]!;
  // GPKG:path:table — the path ends at the last ':' that is not part of a Windows drive.
  const last = rest.lastIndexOf(':');
  if (last > 1 && !/^[A-Za-z]:[\\/]/.test(rest.slice(last - 1))) return rest.slice(0, last) || null;
  return rest || null;
}

function network(text: string, target: string): SourceClass {
  return { kind: 'network', origin: originOfTarget(target), target: text };
}

/** `scheme://host:port` of the first URL in a network source (as `originOfUrl`), or null. */
export function originOfTarget(target: string): string | null {
  const m = /([a-z][a-z0-9+.-]*):\/\/[^\s"'<>]+/i.exec(target);
  if (!m) return null;
  try {
    const url = new URL(m[0]);
    return url.host ? originOfUrl(url) : null;
  } catch {
    return null;
  }
}

const DEFAULT_PORTS: Record<string, string> = { 'http:': '80', 'https:': '443', 'ws:': '80', 'wss:': '443', 'ftp:': '21', 'ftps:': '990' };

/**
 * The one spelling of an origin everywhere it is compared (approvals, the egress gate, the
 * SSRF guard): `scheme://host:port`, lower case, the default port written out, IPv6 hosts in
 * brackets.
 */
export function originOfUrl(url: URL): string {
  const port = url.port || DEFAULT_PORTS[url.protocol] || '';
  return `${url.protocol}//${url.hostname}${port ? `:${port}` : ''}`.toLowerCase();
}

function isAbsolute(path: string): boolean {
  return path.startsWith('/');
}
