/** The version in serverInfo: package.json's, bundled in at build time. */
import { version } from '../../../package.json';

export const GATEWAY_VERSION: string = version;
