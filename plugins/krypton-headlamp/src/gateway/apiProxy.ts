// Headlamp supplies this module at run time (the build maps it to window.pluginLib), and its
// plugin loader looks for @kinvolk/headlamp-plugin in devDependencies, where it stays.
// eslint-disable-next-line @backstage/no-undeclared-imports
import { clusterRequest } from '@kinvolk/headlamp-plugin/lib/ApiProxy';
import { ClusterRequest } from './clusterRequest';

/**
 * Headlamp's own `ApiProxy.clusterRequest`, typed as the gateway calls it: the assignment is
 * checked against Headlamp's declarations, so a change of its signature fails the type check.
 * It names the cluster of each call, where `ApiProxy.request` takes the one in the page's URL,
 * so a view of one cluster's Secret never sends to another.
 */
export const apiProxyClusterRequest: ClusterRequest = clusterRequest;
