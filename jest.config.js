/**
 * One jest run over every workspace. ts-jest only transpiles (isolatedModules);
 * `npm run typecheck` does the type checking once for src and tests.
 * Workspace imports resolve to sources so a test never runs stale dist code,
 * except the end-to-end suites, which start the built processes.
 */
/** @type {import('jest').Config} */
const services = {
  testEnvironment: 'node',
  roots: ['<rootDir>/common', '<rootDir>/gateway', '<rootDir>/catalog-service', '<rootDir>/collections-service', '<rootDir>/standalone', '<rootDir>/bench', '<rootDir>/deploy', '<rootDir>/client'],
  testMatch: ['**/test/**/*.test.ts'],
  testPathIgnorePatterns: ['/node_modules/', '/dist/'],
  // a folder for what the suites of one run share (a fresh PGlite cluster, the end-to-end suites' seeded DATA_DIR)
  globalSetup: '<rootDir>/jest.global-setup.cjs',
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.typecheck.json' }] },
  moduleNameMapper: {
    '^@skills/common$': '<rootDir>/common/src/index.ts',
    '^@skills/common/testing$': '<rootDir>/common/src/testing/index.ts',
    '^@skills/common/kafka$': '<rootDir>/common/src/kafka/index.ts',
    '^@skills/common/redis$': '<rootDir>/common/src/redis/index.ts',
    '^@skills/common/workspace-roles$': '<rootDir>/common/src/workspace-roles.ts',
    '^@skills/gateway/testing$': '<rootDir>/gateway/src/testing/index.ts',
    '^@skills/(collections-service|catalog-service|gateway|client)$': '<rootDir>/$1/src/index.ts',
  },
};

/**
 * The console's unit tests, a project of its own: console/ is an ES module
 * package (Vite), where node16 would emit import statements, and jest runs
 * CommonJS; ts-jest keeps one compiler setting per project.
 */
const consoleUnits = {
  ...services,
  displayName: 'console',
  roots: ['<rootDir>/console'],
  globalSetup: undefined,
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: { module: 'commonjs', moduleResolution: 'node', isolatedModules: true, esModuleInterop: true } }] },
};

module.exports = {
  projects: [services, consoleUnits],
  maxWorkers: 2,
  // A generous bound for a test or hook that starts databases and processes on two shared cores; a hang still fails.
  // Global, not per project: with `projects`, jest gives hooks the global bound (5 s unless set here).
  testTimeout: 60000,
};
