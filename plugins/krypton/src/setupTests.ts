import { configure } from '@testing-library/react';
import '@testing-library/jest-dom';

// Full MUI pages and forms render slowly on a busy 2-core machine: give tests and the
// testing-library queries that wait for the UI room, so that a slow render is not a failure.
jest.setTimeout(30_000);
configure({ asyncUtilTimeout: 10_000 });
