import { editDistance } from '../text/editDistance.js';
import { asciiLower as lower } from './sqlTokens.js';

/**
 * The SQL functions Mapwright lets the model call — one allow-list for the SQL tool
 * (inspect_sql, inspect_save_query), the attribute filter of inspect_query_features and the
 * expressions of select_by_attribute and field_calculator.
 *
 * GDAL's SQLite dialect and the SQLite/GeoPackage drivers register functions that read files,
 * open datasources or reach the network (ogr_geocode, ogr_datasource_load_layers,
 * gdal_get_pixel_value, SpatiaLite's Import and Export functions, BlobFromFile, XB_*, zipfile_*…)
 * and functions that write to the database (Create*, Drop*, Init*, Recover*, gpkg*, Topo* …).
 * Text hidden in a layer can ask the model to call them, so the boundary is a capability list,
 * not a deny-list: only the functions named below may be called, by exact (ASCII
 * case-insensitive) name — never a prefix. Everything else, known or unknown, is refused.
 *
 * What is here: pure functions of their arguments — SQLite's core scalar, aggregate, window,
 * date/time, math and JSON functions, GDAL's statistics aggregates, and SpatiaLite geometry
 * functions that only compute (constructors from WKT/WKB/GeoJSON/KML/GML text, output as text,
 * accessors, measures, predicates, overlays, ST_Transform). ST_Transform uses PROJ, which reads
 * its own grid files and reaches the network only when PROJ_NETWORK is switched on (it is off
 * by default). A function missing from the SQLite or SpatiaLite build at hand still fails with
 * "no such function"; being listed is permission, not a promise.
 */

/** SQLite core scalar functions (3.40 to 3.50), and GDAL's hstore_get_value and regexp. */
const CORE_SCALAR = [
  'abs',
  'char',
  'coalesce',
  'concat',
  'concat_ws',
  'format',
  'glob',
  'hex',
  'if',
  'ifnull',
  'iif',
  'instr',
  'length',
  'like',
  'likelihood',
  'likely',
  'lower',
  'ltrim',
  'max',
  'min',
  'nullif',
  'octet_length',
  'printf',
  'quote',
  'random',
  'regexp',
  'replace',
  'round',
  'rtrim',
  'sign',
  'soundex',
  'substr',
  'substring',
  'trim',
  'typeof',
  'unhex',
  'unicode',
  'unlikely',
  'upper',
  'hstore_get_value',
  'sqlite_version',
  'spatialite_version',
];

const DATE_TIME = ['date', 'time', 'datetime', 'julianday', 'unixepoch', 'strftime', 'timediff'];

const MATH = [
  'acos',
  'acosh',
  'asin',
  'asinh',
  'atan',
  'atan2',
  'atanh',
  'ceil',
  'ceiling',
  'cos',
  'cosh',
  'cot',
  'degrees',
  'exp',
  'floor',
  'ln',
  'log',
  'log10',
  'log2',
  'mod',
  'pi',
  'pow',
  'power',
  'radians',
  'sin',
  'sinh',
  'sqrt',
  'square',
  'tan',
  'tanh',
  'trunc',
];

/** JSON functions that only compute on their arguments (json_each and json_tree are table-valued, below). */
const JSON_SCALAR = [
  'json',
  'jsonb',
  'json_array',
  'jsonb_array',
  'json_array_length',
  'json_error_position',
  'json_extract',
  'jsonb_extract',
  'json_insert',
  'jsonb_insert',
  'json_object',
  'jsonb_object',
  'json_patch',
  'jsonb_patch',
  'json_pretty',
  'json_quote',
  'json_remove',
  'jsonb_remove',
  'json_replace',
  'jsonb_replace',
  'json_set',
  'jsonb_set',
  'json_type',
  'json_valid',
];

/** SpatiaLite (and GDAL's stand-in) geometry functions that neither read nor write files nor reach the network. */
const GEOMETRY_SCALAR = [
  // constructors from text and blobs
  'geomfromtext',
  'st_geomfromtext',
  'geometryfromtext',
  'st_geometryfromtext',
  'pointfromtext',
  'st_pointfromtext',
  'linefromtext',
  'st_linefromtext',
  'linestringfromtext',
  'st_linestringfromtext',
  'polyfromtext',
  'st_polyfromtext',
  'polygonfromtext',
  'st_polygonfromtext',
  'mpointfromtext',
  'st_mpointfromtext',
  'multipointfromtext',
  'st_multipointfromtext',
  'mlinefromtext',
  'st_mlinefromtext',
  'multilinestringfromtext',
  'st_multilinestringfromtext',
  'mpolyfromtext',
  'st_mpolyfromtext',
  'multipolygonfromtext',
  'st_multipolygonfromtext',
  'geomcollfromtext',
  'st_geomcollfromtext',
  'geometrycollectionfromtext',
  'st_geometrycollectionfromtext',
  'bdpolyfromtext',
  'st_bdpolyfromtext',
  'bdmpolyfromtext',
  'st_bdmpolyfromtext',
  'geomfromwkb',
  'st_geomfromwkb',
  'geometryfromwkb',
  'st_geometryfromwkb',
  'pointfromwkb',
  'st_pointfromwkb',
  'linefromwkb',
  'st_linefromwkb',
  'linestringfromwkb',
  'st_linestringfromwkb',
  'polyfromwkb',
  'st_polyfromwkb',
  'polygonfromwkb',
  'st_polygonfromwkb',
  'mpointfromwkb',
  'st_mpointfromwkb',
  'multipointfromwkb',
  'st_multipointfromwkb',
  'mlinefromwkb',
  'st_mlinefromwkb',
  'multilinestringfromwkb',
  'st_multilinestringfromwkb',
  'mpolyfromwkb',
  'st_mpolyfromwkb',
  'multipolygonfromwkb',
  'st_multipolygonfromwkb',
  'geomcollfromwkb',
  'st_geomcollfromwkb',
  'geometrycollectionfromwkb',
  'st_geometrycollectionfromwkb',
  'bdpolyfromwkb',
  'st_bdpolyfromwkb',
  'bdmpolyfromwkb',
  'st_bdmpolyfromwkb',
  'geomfromewkt',
  'geomfromewkb',
  'geomfromgeojson',
  'geomfromkml',
  'geomfromgml',
  'geomfromfgf',
  'geomfromtwkb',
  'st_wkttosql',
  'st_wkbtosql',
  'st_linefromencodedpolyline',
  'makepoint',
  'st_makepoint',
  'st_point',
  'makepointz',
  'makepointm',
  'makepointzm',
  'makeline',
  'st_makeline',
  'makepolygon',
  'st_makepolygon',
  'buildmbr',
  'buildcirclembr',
  'makecircle',
  'makeellipse',
  'makearc',
  'makeellipticarc',
  'makecircularsector',
  'makecircularstripe',
  'makeellipticsector',
  // output as text or blob
  'astext',
  'st_astext',
  'aswkt',
  'asbinary',
  'st_asbinary',
  'asewkt',
  'asewkb',
  'asgeojson',
  'askml',
  'asgml',
  'assvg',
  'asx3d',
  'st_asx3d',
  'asfgf',
  'astwkb',
  'st_asencodedpolyline',
  'geohash',
  'st_geohash',
  'togars',
  // accessors
  'x',
  'y',
  'z',
  'm',
  'st_x',
  'st_y',
  'st_z',
  'st_m',
  'srid',
  'st_srid',
  'setsrid',
  'geometrytype',
  'st_geometrytype',
  'geometryaliastype',
  'dimension',
  'st_dimension',
  'coorddimension',
  'st_ndims',
  'st_is3d',
  'st_ismeasured',
  'numpoints',
  'st_numpoints',
  'st_npoints',
  'st_nrings',
  'numgeometries',
  'st_numgeometries',
  'numinteriorring',
  'numinteriorrings',
  'st_numinteriorring',
  'st_numinteriorrings',
  'geometryn',
  'st_geometryn',
  'pointn',
  'st_pointn',
  'startpoint',
  'st_startpoint',
  'endpoint',
  'st_endpoint',
  'exteriorring',
  'st_exteriorring',
  'interiorringn',
  'st_interiorringn',
  'envelope',
  'st_envelope',
  'mbrminx',
  'mbrminy',
  'mbrmaxx',
  'mbrmaxy',
  'st_minx',
  'st_miny',
  'st_maxx',
  'st_maxy',
  'st_minz',
  'st_maxz',
  'st_minm',
  'st_maxm',
  'isempty',
  'st_isempty',
  'isvalid',
  'st_isvalid',
  'isvalidreason',
  'st_isvalidreason',
  'isvaliddetail',
  'st_isvaliddetail',
  'issimple',
  'st_issimple',
  'isclosed',
  'st_isclosed',
  'isring',
  'st_isring',
  'st_ispolygoncw',
  'st_ispolygonccw',
  'isgeometryblob',
  'garsmbr',
  // measures
  'area',
  'st_area',
  'glength',
  'st_length',
  'perimeter',
  'st_perimeter',
  'distance',
  'st_distance',
  'st_3ddistance',
  'st_3dlength',
  'maxdistance',
  'st_maxdistance',
  'st_3dmaxdistance',
  'azimuth',
  'st_azimuth',
  'project',
  'st_project',
  'geodesiclength',
  'greatcirclelength',
  'geodesicarcarea',
  'geodesicarcheight',
  'geodesicarclength',
  'geodesiccentralangle',
  'geodesicchordlength',
  'hausdorffdistance',
  'st_hausdorffdistance',
  'frechetdistance',
  'st_frechetdistance',
  'ptdistwithin',
  'circularity',
  'curvosityindex',
  'st_curvosityindex',
  'longlattodms',
  'latitudefromdms',
  'longitudefromdms',
  // predicates
  'intersects',
  'st_intersects',
  'contains',
  'st_contains',
  'within',
  'st_within',
  'touches',
  'st_touches',
  'crosses',
  'st_crosses',
  'overlaps',
  'st_overlaps',
  'disjoint',
  'st_disjoint',
  'equals',
  'st_equals',
  'covers',
  'st_covers',
  'coveredby',
  'st_coveredby',
  'relate',
  'st_relate',
  'st_relatematch',
  'mbrintersects',
  'mbrcontains',
  'mbrwithin',
  'mbrtouches',
  'mbroverlaps',
  'mbrdisjoint',
  'mbrequal',
  'st_envintersects',
  'st_envelopesintersects',
  // operations
  'buffer',
  'st_buffer',
  'centroid',
  'st_centroid',
  'pointonsurface',
  'st_pointonsurface',
  'convexhull',
  'st_convexhull',
  'concavehull',
  'st_concavehull',
  'simplify',
  'st_simplify',
  'simplifypreservetopology',
  'st_simplifypreservetopology',
  'intersection',
  'st_intersection',
  'difference',
  'st_difference',
  'symdifference',
  'st_symdifference',
  'st_union',
  'gunion',
  'unaryunion',
  'st_unaryunion',
  'collect',
  'st_collect',
  'transform',
  'st_transform',
  'transformxy',
  'st_transformxy',
  'transformxyz',
  'st_transformxyz',
  'boundary',
  'st_boundary',
  'makevalid',
  'st_makevalid',
  'linemerge',
  'st_linemerge',
  'st_reverse',
  'offsetcurve',
  'st_offsetcurve',
  'singlesidedbuffer',
  'st_singlesidedbuffer',
  'snap',
  'st_snap',
  'snaptogrid',
  'st_snaptogrid',
  'segmentize',
  'st_segmentize',
  'st_subdivide',
  'split',
  'st_split',
  'splitleft',
  'st_splitleft',
  'splitright',
  'st_splitright',
  'closestpoint',
  'st_closestpoint',
  'shortestline',
  'st_shortestline',
  'sharedpaths',
  'st_sharedpaths',
  'line_interpolate_point',
  'st_line_interpolate_point',
  'line_locate_point',
  'st_line_locate_point',
  'line_substring',
  'st_line_substring',
  'line_interpolate_equidistant_points',
  'st_line_interpolate_equidistant_points',
  'delaunaytriangulation',
  'st_delaunaytriangulation',
  'voronojdiagram',
  'st_voronojdiagram',
  'polygonize',
  'st_polygonize',
  'buildarea',
  'st_buildarea',
  'st_multi',
  'collectionextract',
  'st_collectionextract',
  'extractmultipoint',
  'extractmultilinestring',
  'extractmultipolygon',
  'casttomulti',
  'casttosingle',
  'casttopoint',
  'casttolinestring',
  'casttopolygon',
  'casttomultipoint',
  'casttomultilinestring',
  'casttomultipolygon',
  'casttogeometrycollection',
  'casttoxy',
  'casttoxyz',
  'casttoxym',
  'casttoxyzm',
  'st_translate',
  'shiftcoords',
  'shiftcoordinates',
  'scalecoords',
  'scalecoordinates',
  'rotatecoords',
  'rotatecoordinates',
  'reflectcoords',
  'reflectcoordinates',
  'swapcoords',
  'swapcoordinates',
  'st_shift_longitude',
  'normalizelonlat',
  'st_forcepolygoncw',
  'st_forcepolygonccw',
  'st_forcelhr',
  'sanitizegeometry',
  'removerepeatedpoints',
  'st_node',
  'squaregrid',
  'st_squaregrid',
  'hexagonalgrid',
  'st_hexagonalgrid',
  'triangulargrid',
  'st_triangulargrid',
  'ensureclosedrings',
  'dissolvepoints',
  'st_dissolvepoints',
  'dissolvesegments',
  'st_dissolvesegments',
  'linescutatnodes',
  'st_linescutatnodes',
  'ringscutatnodes',
  'st_ringscutatnodes',
  'linesfromrings',
  'st_linesfromrings',
  'addpoint',
  'st_addpoint',
  'removepoint',
  'st_removepoint',
  'setpoint',
  'st_setpoint',
  'setstartpoint',
  'st_setstartpoint',
  'setendpoint',
  'st_setendpoint',
  'st_addmeasure',
  'st_interpolatepoint',
  'st_locatealong',
  'st_locatebetween',
  'compressgeometry',
  'uncompressgeometry',
  'st_expand',
  'buildmbrfilter',
];

const CORE_AGGREGATE = [
  'avg',
  'count',
  'group_concat',
  'string_agg',
  'max',
  'min',
  'sum',
  'total',
  'json_group_array',
  'jsonb_group_array',
  'json_group_object',
  'jsonb_group_object',
  // GDAL's SQLite dialect (and SpatiaLite) statistics
  'stddev_pop',
  'stddev_samp',
  'var_pop',
  'var_samp',
  'median',
  'percentile',
  'percentile_cont',
  'percentile_disc',
  'mode',
];

/** SpatiaLite aggregates over geometries (st_union, collect and makeline are scalar with two arguments). */
const GEOMETRY_AGGREGATE = [
  'st_union',
  'gunion',
  'collect',
  'st_collect',
  'extent',
  'st_extent',
  'makeline',
  'st_makeline',
  'polygonize',
  'st_polygonize',
];

const WINDOW = [
  'row_number',
  'rank',
  'dense_rank',
  'percent_rank',
  'cume_dist',
  'ntile',
  'lag',
  'lead',
  'first_value',
  'last_value',
  'nth_value',
];

/** Table-valued functions allowed in FROM (and after IN): pure JSON readers. */
const TABLE_VALUED = ['json_each', 'json_tree', 'jsonb_each', 'jsonb_tree'];

/** Aggregate functions that are scalar when called with two or more arguments: min(a, b), st_union(g1, g2). */
export const AGGREGATE_WHEN_ONE_ARGUMENT: ReadonlySet<string> = new Set([
  'min',
  'max',
  'st_union',
  'gunion',
  'collect',
  'st_collect',
  'makeline',
  'st_makeline',
]);

/** Scalar functions: allowed in any expression, including a per-feature expression. */
export const SCALAR_FUNCTIONS: ReadonlySet<string> = new Set([...CORE_SCALAR, ...DATE_TIME, ...MATH, ...JSON_SCALAR, ...GEOMETRY_SCALAR]);

/** Aggregates (only in a query, where rows are grouped). */
export const AGGREGATE_FUNCTIONS: ReadonlySet<string> = new Set([...CORE_AGGREGATE, ...GEOMETRY_AGGREGATE]);

export const WINDOW_FUNCTIONS: ReadonlySet<string> = new Set(WINDOW);

export const TABLE_FUNCTIONS: ReadonlySet<string> = new Set(TABLE_VALUED);

/** Every function a full query may call outside FROM: scalar, aggregate and window functions. */
export const QUERY_FUNCTIONS: ReadonlySet<string> = new Set([...SCALAR_FUNCTIONS, ...AGGREGATE_FUNCTIONS, ...WINDOW_FUNCTIONS]);

export type FunctionContext = 'query' | 'expression' | 'table';

/** Whether `name` may be called in `context` (ASCII case-insensitive, as SQLite looks names up). */
export function isAllowedFunction(name: string, context: FunctionContext): boolean {
  const n = lower(name);
  if (context === 'table') return TABLE_FUNCTIONS.has(n);
  return (context === 'query' ? QUERY_FUNCTIONS : SCALAR_FUNCTIONS).has(n);
}

/** Why a known dangerous family is refused; null for a name we know nothing about. */
function dangerOf(n: string): string | null {
  if (n.startsWith('ogr_')) return "GDAL's ogr_* functions open other datasources, geocode over the network or read GDAL's state";
  if (n.startsWith('gdal_')) return "GDAL's gdal_* functions open raster files";
  if (n === 'load_extension') return 'it loads native code';
  if (n === 'readfile' || n === 'writefile' || n === 'edit' || n === 'blobfromfile' || n === 'blobtofile' || n.startsWith('zipfile'))
    return 'it reads or writes files';
  if (n.startsWith('import') || n.startsWith('export')) return 'it imports or exports files';
  if (n.startsWith('xb_')) return 'XmlBLOB functions can load documents and schemas from files or URLs';
  if (n.startsWith('proj_') || n.startsWith('setdecimal') || n === 'ogr_setconfigoption' || n === 'sqlite_log')
    return 'it changes or reveals process-wide settings';
  if (n.startsWith('pragma_') || n === 'pragma') return 'PRAGMA functions read or change database settings';
  if (
    n.startsWith('fts') ||
    n.startsWith('rtree') ||
    ['match', 'matchinfo', 'offsets', 'snippet', 'highlight', 'bm25', 'optimize'].includes(n)
  )
    return 'full-text and R-tree internals are not available';
  if (
    /^(create|drop|init|recover|discard|gpkg|topo|network|sqlproc|storedproc|storedvar|wms_|se_|rl2_|register|unregister|update|upgrade|rebuild|recreate|rename|clone|add|remove|invalidate|insert|autofdo|autogpkg|enable|disable|check|sequence_|st_(add|rem|mod|new|change|move|create|init|validate|get|spatnet|loginet)|elementary|dropgeo)/.test(
      n,
    )
  ) {
    return 'it changes the database or its metadata';
  }
  return null;
}

const SCALAR_SUMMARY = [
  'SQLite core functions (abs, round, substr, replace, lower, upper, coalesce, iif, printf, instr, …)',
  'date/time (date, datetime, strftime, julianday)',
  'math (sqrt, pow, floor, ceil, ln, log10, pi, sin, …)',
  'pure JSON functions (json_extract, json_object, json_array…)',
];
const GROUPED_SUMMARY = [
  'aggregates (count, sum, avg, min, max, group_concat, total, median, stddev_pop)',
  'window functions (row_number, rank, lag, lead…)',
];
const GEOMETRY_SUMMARY =
  'SpatiaLite geometry functions that only compute (ST_Area, ST_Length, ST_Buffer, ST_Intersects, ST_Contains, ' +
  'ST_Distance, ST_Intersection, ST_Union, ST_Transform, ST_Centroid, ST_AsText, ST_GeomFromText, GeomFromGeoJSON, ' +
  'AsGeoJSON, ST_X, ST_Y, ST_SRID, MakePoint, …)';
const SUMMARY = `Allowed are ${[...SCALAR_SUMMARY, ...GROUPED_SUMMARY].join(', ')} and ${GEOMETRY_SUMMARY}`;
const EXPRESSION_SUMMARY = `Allowed are ${SCALAR_SUMMARY.join(', ')} and ${GEOMETRY_SUMMARY}`;

/** Allowed names within two edits of `name`, nearest first. */
function nearest(n: string, allowed: ReadonlySet<string>): string[] {
  return [...allowed]
    .map((a) => [a, editDistance(n, a)] as const)
    .filter(([, d]) => d <= 2)
    .sort((x, y) => x[1] - y[1] || x[0].localeCompare(y[0]))
    .slice(0, 3)
    .map(([a]) => a);
}

/** The reason a call of `name` is refused: what it is, and what is allowed instead. */
export function functionRefusal(name: string, context: FunctionContext): string {
  const n = lower(name);
  const danger = dangerOf(n);
  if (context === 'table') {
    return `${name}() is not allowed in FROM${danger ? ` (${danger})` : ''}; the only table-valued functions allowed are ${[...TABLE_FUNCTIONS].join(', ')} — otherwise name a project layer`;
  }
  if (context === 'expression' && (AGGREGATE_FUNCTIONS.has(n) || WINDOW_FUNCTIONS.has(n))) {
    return `${name}() is not allowed here: it is an aggregate or window function, and this expression is computed per feature, so only scalar functions are allowed (use inspect_sql for aggregates)`;
  }
  const why = danger ?? 'it is not in Mapwright’s list of allowed SQL functions';
  const near = danger ? [] : nearest(n, context === 'query' ? QUERY_FUNCTIONS : SCALAR_FUNCTIONS);
  return `${name}() is not allowed: ${why}. ${near.length ? `Did you mean ${near.join(', ')}? ` : ''}${context === 'query' ? SUMMARY : EXPRESSION_SUMMARY}`;
}
