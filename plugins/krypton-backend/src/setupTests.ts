// Integration tests talk to a real API server; a cold apiserver can take a few seconds per call.
jest.setTimeout(60_000);
