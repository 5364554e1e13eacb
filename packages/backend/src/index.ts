import { createBackend } from '@backstage/backend-defaults';
import { demoReviewerAuthModule } from './demoReviewerAuth';
import { permissionPolicyModule } from './permissionPolicy';

// The example portal's backend: sign-in as two demo users (guest and reviewer), a file-based
// catalog, Krypton, Krypton's actions as MCP tools at /api/mcp-actions/v1, and the notifications
// (with signals, which push them to open pages) that Krypton sends to the owners of a changed
// Secret's entities and to the people of a change request.
const backend = createBackend();

backend.add(import('@backstage/plugin-app-backend'));
backend.add(import('@backstage/plugin-auth-backend'));
backend.add(import('@backstage/plugin-auth-backend-module-guest-provider'));
backend.add(demoReviewerAuthModule);
backend.add(import('@backstage/plugin-catalog-backend'));
backend.add(import('@backstage/plugin-permission-backend'));
backend.add(permissionPolicyModule);
backend.add(import('@krypton/plugin-krypton-backend'));
backend.add(import('@backstage/plugin-mcp-actions-backend'));
backend.add(import('@backstage/plugin-notifications-backend'));
backend.add(import('@backstage/plugin-signals-backend'));

backend.start();
