export * from './test-database';
export * from './redis';
export * from './test-key-pair';
export * from './eventually';
export * from './free-port';
export * from './webhook-receiver';
export * from './loggers';
export * from './until';
