/**
 * The gateway's own name and version, as `--version` prints it and as api2 calls name their
 * caller in `User-Agent` (src/api2/port.ts). Kept equal to package.json's version by
 * test/cli-help-version-and-check-config.test.ts.
 */
export const GATEWAY_NAME = 'recipe-gateway';
export const GATEWAY_VERSION = '0.1.0';
export const GATEWAY_PRODUCT = `${GATEWAY_NAME}/${GATEWAY_VERSION}`;
