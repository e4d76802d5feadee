/** The built children of a `code.run_js` run, in dist/main (built by buildCodeHosts.ts). */
export const CODE_HOST_FILE = 'code-host.mjs';
export const GDAL_BROKER_FILE = 'gdal-broker.mjs';
