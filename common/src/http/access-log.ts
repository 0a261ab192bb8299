import type { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';
import { contextOf } from './request-context';

/**
 * One line per request at debug level (info costs measurable throughput on
 * the search path). Never logs headers or bodies: they carry keys.
 */
export function accessLog(logger: Logger) {
  return (req: Request, res: Response, next: NextFunction): void => {
    if (!logger.isLevelEnabled('debug')) return next();
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      logger.debug(
        {
          requestId: contextOf(res).requestId,
          method: req.method,
          path: req.path,
          status: res.statusCode,
          ms: Number(process.hrtime.bigint() - started) / 1e6,
        },
        'request',
      );
    });
    next();
  };
}
