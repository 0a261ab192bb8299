/**
 * Health and this document itself: no credentials. Metrics and the live
 * readiness check are not on the public port (docs/operations.md).
 */
import { errorResponse } from './components';
import { operation, schemaRef } from './operation-builder';
import type { PathItem } from './openapi-types';

const TAG = 'Operations';

export const operationalPaths: Record<string, PathItem> = {
  '/healthz': {
    get: operation({
      operationId: 'healthz',
      summary: 'Liveness: the process answers',
      tag: TAG,
      kind: 'open',
      success: { status: '200', description: 'Alive.', schema: schemaRef('Health') },
    }),
  },
  '/readyz': {
    get: (() => {
      const op = operation({
        operationId: 'readyz',
        summary: 'Readiness: the database and the services behind the gateway answered the last check',
        description:
          'Answers the state of the last check (at most 5 s old; requests never trigger more than one check per 5 s). ' +
          'The live check is on the monitoring port, which is not public.',
        tag: TAG,
        kind: 'open',
        success: { status: '200', description: 'Ready.', schema: schemaRef('Health') },
      });
      op.responses['503'] = errorResponse('Not ready; the message does not say which dependency failed.', [
        ['health.notReadyPublic'],
      ]);
      return op;
    })(),
  },
  '/api/v1/openapi.json': {
    get: operation({
      operationId: 'openapiDocument',
      summary: 'This OpenAPI 3.1 document',
      tag: TAG,
      kind: 'open',
      success: { status: '200', description: 'The document.', schema: { type: 'object' } },
    }),
  },
  '/docs': {
    get: operation({
      operationId: 'docsPage',
      summary: 'Interactive documentation rendered from this document',
      tag: TAG,
      kind: 'open',
      success: { status: '200', description: 'An HTML page.', contentType: 'text/html', schema: { type: 'string' } },
    }),
  },
};
