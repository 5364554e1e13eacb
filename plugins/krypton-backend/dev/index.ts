import { createBackend } from '@backstage/backend-defaults';

// Runs the plugin alone: yarn workspace @krypton/plugin-krypton-backend start. Krypton resolves
// its cluster through KUBECONFIG unless app-config names one; sign-in comes from the backend's
// default auth services.
const backend = createBackend();
backend.add(import('../src'));
backend.start();
