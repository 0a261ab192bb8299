/**
 * The compose loader is the distributed launcher's (it runs the services with
 * compose's environments), so the checks here read the file the same way.
 */
export * from '../../../standalone/src/distributed/compose-file';
