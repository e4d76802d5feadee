import gdal from 'gdal-async';

/**
 * The one place the worker loads GDAL, so every module that touches GDAL gets the same
 * process-wide settings before it creates its first dataset or spatial reference.
 */

// Never write `.aux.xml` side-car files next to a person's data (PAM caches statistics there).
gdal.config.set('GDAL_PAM_ENABLED', 'NO');
// GDAL 3 honours the authority's axis order (lat, lon for EPSG:4326) unless told otherwise;
// everything in this app (GeoJSON, MapLibre, bboxes) is lon/lat. gdal-async does not expose
// SetAxisMappingStrategy, but this option sets the default for every SRS created from now on.
gdal.config.set('OSR_DEFAULT_AXIS_MAPPING_STRATEGY', 'TRADITIONAL_GIS_ORDER');
// The worker calls a few cheap synchronous getters on private datasets; the warning is noise.
(gdal as unknown as { eventLoopWarning: boolean }).eventLoopWarning = false;

export { gdal };
