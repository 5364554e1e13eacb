import express from 'express';
import Router from 'express-promise-router';

export async function createRouter(): Promise<express.Router> {
  const router = Router();
  router.use(express.json({ limit: '4mb' }));

  router.get('/health', (_req, res) => {
    res.json({ status: 'ok' });
  });

  return router;
}
