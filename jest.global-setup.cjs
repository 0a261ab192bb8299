/**
 * jest's globalSetup (jest.config.js): an empty folder for what the suites of
 * one run share (SKILLS_TEST_RUN_DIR; workers inherit it), removed when jest
 * exits. Nothing is started here: the first suite that needs a shared fixture
 * makes it there (a fresh PGlite cluster, common/src/testing/test-database.ts;
 * the seeded DATA_DIR of the end-to-end suites, standalone/test/integration/e2e/helpers.ts).
 */
'use strict';
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

module.exports = async function testRunDir() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'skills-test-run-'));
  process.env.SKILLS_TEST_RUN_DIR = dir;
  process.on('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
};
