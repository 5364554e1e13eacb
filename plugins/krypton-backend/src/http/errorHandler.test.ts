import { mockServices } from '@backstage/backend-test-utils';
import express from 'express';
import Router from 'express-promise-router';
import request from 'supertest';
import { errorHandler } from './errorHandler';

describe('errorHandler', () => {
  it('answers unexpected errors with a sanitized 500 and logs no message', async () => {
    const logger = mockServices.logger.mock();
    const app = express();
    const router = Router();
    router.get('/boom', async () => {
      throw new Error('upstream said: password=hunter2');
    });
    app.use(router);
    app.use(errorHandler(logger));
    const res = await request(app).get('/boom');
    expect(res.status).toBe(500);
    expect(res.body).toEqual({
      error: 'Krypton could not complete the request.',
    });
    expect(res.headers['cache-control']).toBe('no-store');
    expect(JSON.stringify(logger.error.mock.calls)).not.toContain('hunter2');
  });
});
