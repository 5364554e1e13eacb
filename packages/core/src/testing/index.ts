/**
 * Test doubles for code built on `@krypton/core`: an in-memory `KubeGateway` with the API
 * server's preconditions, pagination and field selectors, for unit tests that need no cluster.
 *
 * @packageDocumentation
 */
export * from './InMemoryKubeGateway';
