import { configure } from '@testing-library/react';
import '@testing-library/jest-dom';

// The previews of values at the size limit render slowly on a busy 2-core machine: give tests and
// the queries that wait for a slice room, so that a slow render is not a failure.
jest.setTimeout(30_000);
configure({ asyncUtilTimeout: 10_000 });
