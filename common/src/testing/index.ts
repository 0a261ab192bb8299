export * from './test-database';
export * from './redis';
export * from './principal-keys';
export * from './eventually';
export * from './free-port';
export * from './webhook-receiver';
