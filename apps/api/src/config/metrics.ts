import { z } from 'zod';

/** Prometheus metrics (docs/deployment.md, "Metrics"). */
export const metricsEnv = z.object({
  METRICS_TOKEN: z.string().min(16, 'at least 16 characters').optional(),
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  METRICS_HOST: z.string().default('127.0.0.1'),
});

export function metricsConfig(e: z.output<typeof metricsEnv>) {
  return {
    /**
     * Prometheus metrics: `GET /api/metrics` with `Authorization: Bearer <token>` when `token` is
     * set, and a listener of its own serving `GET /metrics` on `host`:`port` when `port` is set
     * (0: any free port). Neither: nothing is exposed.
     */
    metrics: {
      token: e.METRICS_TOKEN ?? null,
      port: e.METRICS_PORT ?? null,
      host: e.METRICS_HOST,
    },
  };
}
