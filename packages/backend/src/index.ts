import { createBackend } from '@backstage/backend-defaults';
import { permissionPolicyModule } from './permissionPolicy';

// The example portal's backend: guest sign-in, a file-based catalog, Krypton, and Krypton's
// actions as MCP tools at /api/mcp-actions/v1.
const backend = createBackend();

backend.add(import('@backstage/plugin-app-backend'));
backend.add(import('@backstage/plugin-auth-backend'));
backend.add(import('@backstage/plugin-auth-backend-module-guest-provider'));
backend.add(import('@backstage/plugin-catalog-backend'));
backend.add(import('@backstage/plugin-permission-backend'));
backend.add(permissionPolicyModule);
backend.add(import('@krypton/plugin-krypton-backend'));
backend.add(import('@backstage/plugin-mcp-actions-backend'));

backend.start();
